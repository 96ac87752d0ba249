/**
 * The service's time, which a waiting run measures delays on: the emulator's virtual clock when the
 * target is the embedded emulator (it may run 600 times faster, or be moved by a test), else this
 * machine's clock, as the service's own runs at 1x.
 */
import { ApiError } from '../errors.js';
import type { ApiClient } from '../http/types.js';

export interface ServiceClock {
  /** Milliseconds since the epoch on the service's clock. */
  now(): Promise<number>;
  /** How many service milliseconds pass in one real millisecond (the emulator's time scale). */
  timeScale: number;
  /** True when the target is the embedded emulator. */
  emulator: boolean;
}

const CLOCK_PATH = '/_emulator/clock';

async function readClock(client: ApiClient, signal?: AbortSignal): Promise<{ now: number; timeScale: number }> {
  const res = await client.request<{ now?: unknown; timeScale?: unknown }>({
    method: 'GET',
    path: CLOCK_PATH,
    fromRoot: true,
    ...(signal && { signal }),
  });
  const now = typeof res.body?.now === 'string' ? Date.parse(res.body.now) : Number.NaN;
  const timeScale = typeof res.body?.timeScale === 'number' ? res.body.timeScale : Number.NaN;
  if (!Number.isFinite(now) || !(timeScale > 0))
    throw new ApiError({ status: res.status, code: 'INVALID_RESPONSE', message: `GET ${CLOCK_PATH} gave no clock` });
  return { now, timeScale };
}

/**
 * The clock of `client`'s service. `mayBeEmulator` (loopback, or the `local` profile's URL) decides
 * whether to ask for the emulator's clock at all, so the real service is never sent that request.
 */
export async function serviceClock(
  client: ApiClient,
  mayBeEmulator: boolean,
  signal?: AbortSignal,
): Promise<ServiceClock> {
  const wall: ServiceClock = { now: async () => Date.now(), timeScale: 1, emulator: false };
  if (!mayBeEmulator) return wall;
  let first: { timeScale: number };
  try {
    first = await readClock(client, signal);
  } catch (error) {
    // Another server on loopback (a proxy, a stub of the service): its time is this machine's.
    if (error instanceof ApiError && (error.status === 404 || error.code === 'INVALID_RESPONSE')) return wall;
    throw error;
  }
  return { now: async () => (await readClock(client, signal)).now, timeScale: first.timeScale, emulator: true };
}
