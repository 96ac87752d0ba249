/** The HTTP client: node:http (undici for a proxy or a given dispatcher), versioned base URL, Basic/Bearer auth, typed errors, proxies, polite 429s. */
export {
  API_VERSION,
  createClient,
  normalizeBaseUrl,
  type ApiClient,
  type ApiResponse,
  type Auth,
  type ClientOptions,
  type HttpLogEntry,
  type RequestOptions,
} from './client.js';
export { abortableSleep } from './sleep.js';
