/** `svc keys verify-stamp --stamp <value>`: checks a stamp over a payload; exit 1 when it fails. */
import type { OptionsOf } from '../verb.js';
import type * as verbs from './verbs.js';
import type { Deps } from '../deps.js';
import { verifyStamp } from '../../src/crypto/stamp.js';
import { readPayload } from './read-input.js';

export type VerifyStampOptions = OptionsOf<typeof verbs.verifyStamp>;

export async function run(opts: VerifyStampOptions, deps: Deps): Promise<void> {
  const payload = await readPayload(opts, deps);
  // Throws StampError (a VerificationError: exit 1) with the reason, malformed or invalid.
  const { publicKey } = verifyStamp(opts.stamp, payload);
  const { ui } = deps;
  ui.result({ valid: true, publicKey }, () => ui.out(publicKey));
}
