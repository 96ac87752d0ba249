/** `--timeout <seconds>` and SERVICE_TIMEOUT: how long one HTTP request may take before it is given up. */
import { UsageError } from '../src/errors.js';

/** At most a day: anything longer is a typo (milliseconds given as seconds). */
const MAX_SECONDS = 86_400;

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
        field,
        hint: 'For example --timeout 60, or SERVICE_TIMEOUT=60.',
      },
    );
  }
  return Math.round(seconds * 1000);
}
