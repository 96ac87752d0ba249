/** `svc keys decrypt-bundle --bundle <base58check>`: opens an encryptedSessionSigningKey. */
import type { Deps } from '../deps.js';
import { decryptSessionSigningKey } from '../../src/crypto/bundles.js';
import { readPrivateKey } from './read-input.js';

export interface DecryptBundleOptions {
  bundle: string;
  privateKey?: string;
  privateKeyFile?: string;
}

export async function run(opts: DecryptBundleOptions, deps: Deps): Promise<void> {
  const privateKey = await readPrivateKey(opts);
  const plaintext = await decryptSessionSigningKey(opts.bundle, privateKey);
  deps.io.stdout.write((deps.globals.json ? JSON.stringify({ plaintext }) : plaintext) + '\n');
}
