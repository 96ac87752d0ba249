/**
 * A GET of one of the running emulator's own endpoints (/_emulator/…), with the current profile's
 * credentials: `svc emulator logs` and `svc emulator open` read the emulator the profile points at
 * (the `local` profile while `svc emulator start` runs). A server without that endpoint is not an
 * emulator: a clear error says so instead of its 404.
 */
import type { Deps } from '../deps.js';
import { ApiError, SvcError } from '../../src/errors.js';

export async function getFromEmulator<T>(
  deps: Deps,
  path: string,
  query = '',
  timeoutMs?: number,
): Promise<{ body: T; baseUrl: string }> {
  const client = await deps.client();
  try {
    const res = await client.request<T>({
      method: 'GET',
      path: `${path}${query}`,
      fromRoot: true,
      signal: deps.signal,
      ...(timeoutMs !== undefined ? { timeoutMs } : {}),
    });
    return { body: res.body, baseUrl: client.baseUrl };
  } catch (error) {
    if (error instanceof ApiError && (error.status === 404 || error.status === 405))
      throw new SvcError(`${client.baseUrl} is not the svc emulator: it has no ${path}`, {
        hint: 'Start one with `svc emulator start` (its `local` profile is then current), or pass --profile local.',
      });
    throw error;
  }
}
