/** The two-step signed retry shared by every wallet-signed flow. */
export {
  MAX_PROCESSING_RESENDS,
  signedRequest,
  type SignedRequestChallenge,
  type SignedRequestHooks,
  type SignedRequestOptions,
} from './engine.js';
export { parseChallenge } from './challenge.js';
