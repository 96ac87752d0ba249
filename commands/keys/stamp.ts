/** `svc keys stamp`: the Service-Wallet-Signature value for a payload (flag, file or stdin). */
import type { OptionsOf } from '../verb.js';
import type * as verbs from './verbs.js';
import type { Deps } from '../deps.js';
import { createStamper, parseStamp } from '../../src/crypto/stamp.js';
import { readPayload, readPrivateKey } from './read-input.js';

export type StampOptions = OptionsOf<typeof verbs.stamp>;

export async function run(opts: StampOptions, deps: Deps): Promise<void> {
  const privateKey = await readPrivateKey(opts, deps);
  const payload = await readPayload(opts, deps);
  const stamp = createStamper(privateKey)(payload);
  const { ui } = deps;
  // The stamp already carries the public key; deriving it again would cost a second scalar multiplication.
  ui.result({ stamp, publicKey: parseStamp(stamp).publicKey }, () => ui.out(stamp));
}
