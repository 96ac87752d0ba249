export {
  signedRequest,
  type SignedRequestChallenge,
  type SignedRequestHooks,
  type SignedRequestOptions,
} from './engine.js';
export { parseChallenge } from './challenge.js';
