/** The two-step signed retry shared by every wallet-signed flow. */
export {
  signedRequest,
  type SignedRequestChallenge,
  type SignedRequestHooks,
  type SignedRequestOptions,
} from './engine.js';
export { parseChallenge } from './challenge.js';
