/** Raw API calls without a terminal: fields to a JSON body, paths, headers, the signed call and pagination. */
export {
  buildFields,
  flattenToQuery,
  queryString,
  type FieldArg,
  type FieldKind,
  type Json,
  type ReadValue,
} from './fields.js';
export {
  apiCall,
  idempotencyKey,
  normalizePath,
  parseHeaders,
  parseQuery,
  requireMethod,
  METHODS,
  type ApiCallOptions,
  type ApiCallResult,
} from './request.js';
export { paginate, type PageOptions } from './paginate.js';
