/** The shapes of the HTTP client's API (createClient in client.ts), apart from its behaviour. */
import type { Dispatcher } from 'undici';

/** HTTP Basic with an API token (`<token id>:<client secret>`), or an agent's Bearer access token. */
export type Auth = { kind: 'basic'; tokenId: string; secret: string } | { kind: 'bearer'; token: string };
/**
 * One exchange as the verbose log shows it: never headers or bodies, and the query with the value of
 * any parameter named like a secret masked (base-url.ts loggableQuery), so never a secret.
 */
export interface HttpLogEntry {
  method: string;
  path: string;
  /** `?name=value&…` as sent, secret-named values as ***; '' when there is none. */
  query: string;
  status?: number;
  ms: number;
  error?: string;
}
/** How createClient reaches the service. */
export interface ClientOptions {
  /** The service's base URL; `/2025-10-13` is appended when it has no date segment. */
  baseUrl: string;
  auth: Auth;
  /** An undici dispatcher to use instead of the default (or the proxy agent). */
  dispatcher?: Dispatcher;
  /** Per exchange, headers and body included; default 30000. */
  timeoutMs?: number;
  /**
   * Send credentials (HTTP Basic, a Bearer token, a wallet stamp) over plain http:// to a host that is
   * not loopback. Off by default: such a request is refused before any connection (InsecureTransportError).
   */
  allowInsecureHttp?: boolean;
  /** The most bytes of one answer's body read before giving up with ResponseTooLargeError; default 16 MiB. */
  maxResponseBytes?: number;
  /** Called once per exchange (for a verbose log). */
  log?: (e: HttpLogEntry) => void;
  userAgent?: string;
  /** Where HTTPS_PROXY, HTTP_PROXY and NO_PROXY are read; default process.env. */
  env?: NodeJS.ProcessEnv;
}
/** A 2xx answer: lower-cased headers, the body parsed as JSON (or the text when it is not JSON), and the raw text. */
export interface ApiResponse<T = unknown> {
  status: number;
  headers: Record<string, string>;
  body: T;
  text: string;
}
/** One request; `path` is relative to the versioned base URL. */
export interface RequestOptions {
  method: string;
  /** '/auth/sessions/…'; a query is allowed (and never logged). */
  path: string;
  /** A string is sent as these exact bytes; an object as its JSON. */
  body?: string | object;
  headers?: Record<string, string>;
  /** Aborting it ends the request (and any 429 wait) with InterruptedError. */
  signal?: AbortSignal;
  /** `path` is from the server's root, outside the version segment (the emulator's own endpoints). */
  fromRoot?: boolean;
  /** This request's own limit, below the client's timeoutMs (a flow with a deadline for all its steps). */
  timeoutMs?: number;
}
/** The client every command and library caller uses; see createClient. */
export interface ApiClient {
  readonly baseUrl: string;
  /** How long one exchange may take (ClientOptions.timeoutMs); a multi-step flow also bounds its whole run by it. */
  readonly timeoutMs?: number;
  /** Resolves for 2xx; throws ApiError (status, code, message, details, reason) for any other status, NetworkError when no answer. */
  request<T = unknown>(req: RequestOptions): Promise<ApiResponse<T>>;
}
