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
