/**
 * Replays logged webhook events through the emulator's POST /_emulator/webhooks/replay. The
 * service's API description has no operation to list or resend events, so replay exists only for
 * the emulator: a base URL that is not the emulator is refused before any request is sent.
 */
import { ApiError, SvcError } from '../errors.js';
import type { ApiClient } from '../http/types.js';
export const REPLAY_PATH = '/_emulator/webhooks/replay';

/** The body of POST /_emulator/webhooks/replay: which logged events, and where to (default: the endpoint). */
export interface ReplayRequest {
  ids?: string[];
  types?: string[];
  since?: string;
  to?: string;
}

export interface ReplayOutcome {
  id: string;
  type: string;
  timestamp: string;
  /**
   * `duplicate`: the consumer answered 409 (it had processed that id); `retrying`: the first attempt
   * failed; `queued`: not tried yet (after a failure, or a long replay), the emulator delivers it later.
   */
  outcome: 'delivered' | 'duplicate' | 'retrying' | 'queued';
  responseStatus?: number;
  error?: string;
}

export interface ReplayResult {
  endpoint: string;
  data: ReplayOutcome[];
}

const LOOPBACK_HOSTS = new Set(['localhost', '[::1]', '::1']);

/**
 * Whether a base URL can be the embedded emulator: it serves on loopback (127.0.0.1 by default), or
 * on the address the `local` profile holds (an emulator started on another host writes it), which
 * is read only when the host is not loopback.
 */
export async function mayBeEmulator(
  baseUrl: string,
  localProfileBaseUrl: () => Promise<string | undefined>,
): Promise<boolean> {
  const url = new URL(baseUrl);
  if (LOOPBACK_HOSTS.has(url.hostname) || /^127\.\d+\.\d+\.\d+$/.test(url.hostname)) return true;
  const local = await localProfileBaseUrl();
  return local !== undefined && URL.canParse(local) && new URL(local).origin === url.origin;
}

export async function replayEvents(
  client: ApiClient,
  body: ReplayRequest,
  signal?: AbortSignal,
): Promise<ReplayResult> {
  try {
    const res = await client.request<ReplayResult>({
      method: 'POST',
      path: REPLAY_PATH,
      fromRoot: true,
      body,
      ...(signal && { signal }),
    });
    return res.body;
  } catch (error) {
    // The emulator's own 404 names the unknown ids; any other 404 means this server has no replay at all.
    if (error instanceof ApiError && error.status === 404 && !Array.isArray(error.details?.ids)) {
      throw new SvcError(
        `${new URL(client.baseUrl).origin} has no ${REPLAY_PATH}: replay works only against the embedded emulator`,
        { reason: 'NO_REPLAY', hint: 'Point the client at a running emulator.', cause: error },
      );
    }
    throw error;
  }
}
