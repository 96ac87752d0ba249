/** `svc keys stamp`: the Service-Wallet-Signature value for a payload (flag, file or stdin). */
import type { Deps } from '../deps.js';
import { createStamper, parseStamp } from '../../src/crypto/stamp.js';
import { readPayload, readPrivateKey } from './read-input.js';

export interface StampOptions {
  privateKey?: string;
  privateKeyFile?: string;
  payload?: string;
  payloadFile?: string;
}

export async function run(opts: StampOptions, deps: Deps): Promise<void> {
  const privateKey = await readPrivateKey(opts);
  const payload = await readPayload(opts, deps);
  const stamp = createStamper(privateKey)(payload);
  if (deps.globals.json) {
    // The stamp already carries the public key; deriving it again would cost a second scalar multiplication.
    deps.io.stdout.write(JSON.stringify({ stamp, publicKey: parseStamp(stamp).publicKey }) + '\n');
    return;
  }
  deps.io.stdout.write(stamp + '\n');
}
