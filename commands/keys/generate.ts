/** `svc keys generate [--uncompressed]`: a fresh P-256 key pair in SEC1 hex. */
import type { Deps } from '../deps.js';
import { generateKeyPair } from '../../src/crypto/keys.js';

export interface GenerateOptions {
  /** Print the public key as 04… (130 hex), which selects the legacy sealed-key flow. */
  uncompressed: boolean;
}

export async function run(opts: GenerateOptions, deps: Deps): Promise<void> {
  const pair = generateKeyPair({ uncompressed: opts.uncompressed });
  if (deps.globals.json) {
    deps.io.stdout.write(JSON.stringify({ privateKey: pair.privateKey, publicKey: pair.publicKey }) + '\n');
    return;
  }
  // Printing the private key is this command's purpose; it goes to stdout only, never to logs.
  deps.io.stdout.write(`Private key: ${pair.privateKey}\nPublic key:  ${pair.publicKey}\n`);
  deps.io.stderr.write('Keep the private key secret: it signs as this session.\n');
}
