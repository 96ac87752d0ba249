/** `svc keys verify-stamp --stamp <value>`: checks a stamp over a payload; exit 1 when it fails. */
import type { Deps } from '../deps.js';
import { verifyStamp } from '../../src/crypto/stamp.js';
import { readPayload } from './read-input.js';

export interface VerifyStampOptions {
  stamp: string;
  payload?: string;
  payloadFile?: string;
}

export async function run(opts: VerifyStampOptions, deps: Deps): Promise<void> {
  const payload = await readPayload(opts, deps);
  // Throws StampError (a VerificationError: exit 1) with the reason, malformed or invalid.
  const { publicKey } = verifyStamp(opts.stamp, payload);
  if (deps.globals.json) {
    deps.io.stdout.write(JSON.stringify({ valid: true, publicKey }) + '\n');
    return;
  }
  deps.io.stdout.write(publicKey + '\n');
}
