/** `svc keys generate [--uncompressed]`: a fresh P-256 key pair in SEC1 hex. */
import type { OptionsOf } from '../verb.js';
import type * as verbs from './verbs.js';
import type { Deps } from '../deps.js';
import { generateKeyPair } from '../../src/crypto/keys.js';

export type GenerateOptions = OptionsOf<typeof verbs.generate>;

export async function run(opts: GenerateOptions, deps: Deps): Promise<void> {
  const pair = generateKeyPair({ uncompressed: opts.uncompressed });
  const { ui } = deps;
  // Printing the private key is this command's purpose; it goes to stdout only, never to logs.
  ui.result({ privateKey: pair.privateKey, publicKey: pair.publicKey }, () => {
    ui.out(`Private key: ${pair.privateKey}`);
    ui.out(`Public key:  ${pair.publicKey}`);
    ui.info('Keep the private key secret: it signs as this session.');
  });
}
