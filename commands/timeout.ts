/**
 * `--timeout <seconds>` and SERVICE_TIMEOUT: how long one HTTP request may take before it is given
 * up (and a signed flow, all its steps together); SERVICE_MAX_RESPONSE_MB: the largest answer read.
 */
import { UsageError } from '../src/errors.js';

/** At most a day: anything longer is a typo (milliseconds given as seconds). */
const MAX_SECONDS = 86_400;

/** At most 1 GiB: V8 cannot hold a longer string anyway. */
const MAX_RESPONSE_MB = 1024;

/** Bytes from SERVICE_MAX_RESPONSE_MB, else undefined (the client's default, 16 MiB). */
export function maxResponseBytes(env: NodeJS.ProcessEnv): number | undefined {
  const raw = env.SERVICE_MAX_RESPONSE_MB?.trim();
  if (!raw) return undefined;
  const mb = Number(raw);
  if (!/^\d+$/.test(raw) || mb < 1 || mb > MAX_RESPONSE_MB) {
    throw new UsageError(
      `SERVICE_MAX_RESPONSE_MB must be a whole number of MiB from 1 to ${MAX_RESPONSE_MB}, got ${JSON.stringify(raw)}`,
      {
        input: 'SERVICE_MAX_RESPONSE_MB',
        hint: 'For example SERVICE_MAX_RESPONSE_MB=64, or unset it for the default of 16.',
      },
    );
  }
  return mb * 1024 * 1024;
}

/** Milliseconds from the flag, else the environment, else undefined (the client's default). */
export function timeoutMs(flag: string | undefined, env: NodeJS.ProcessEnv): number | undefined {
  const fromEnv = env.SERVICE_TIMEOUT?.trim() || undefined;
  const raw = flag ?? fromEnv;
  if (raw === undefined) return undefined;
  const field = flag !== undefined ? '--timeout' : 'SERVICE_TIMEOUT';
  const seconds = Number(raw);
  if (!/^\d+(\.\d+)?$/.test(raw.trim()) || !(seconds > 0) || seconds > MAX_SECONDS) {
    throw new UsageError(
      `${field} must be a number of seconds above 0 and at most ${MAX_SECONDS}, got ${JSON.stringify(raw)}`,
      {
        input: field,
        hint: 'For example --timeout 60, or SERVICE_TIMEOUT=60.',
      },
    );
  }
  return Math.round(seconds * 1000);
}
