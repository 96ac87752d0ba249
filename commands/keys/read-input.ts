/**
 * What `svc keys …` reads: a private key and a payload, each from its flag or its `-file` twin
 * (commands/input.ts), the payload also from piped stdin. Payloads are kept as exact bytes (no
 * trimming, no re-encoding), because a stamp signs bytes and one stray newline changes the
 * signature. Errors name the flag to pass and never include a key's value.
 */
import type { Deps } from '../deps.js';
import { UsageError } from '../../src/errors.js';
import { validatePrivateKey } from '../../src/crypto/keys.js';
import { readAll, readFlagOrFile } from '../input.js';

/**
 * The private key (64 hex) from --private-key or --private-key-file, whitespace trimmed. A key typed
 * on the command line is now in the shell's history (and the process list): say so, as
 * `config set` does for a secret, with the flag that avoids it.
 */
export async function readPrivateKey(
  opts: { privateKey?: string; privateKeyFile?: string },
  deps: Pick<Deps, 'io' | 'ui'>,
): Promise<string> {
  const given = { text: opts.privateKey, file: opts.privateKeyFile };
  const bytes = await readFlagOrFile(given, { text: '--private-key', file: '--private-key-file' }, deps);
  let value: string;
  if (bytes !== undefined) value = bytes.toString('utf8').trim();
  else {
    throw new UsageError('a private key is required: pass --private-key <hex> or --private-key-file <path>', {
      input: '--private-key',
      hint: 'Generate one with: svc keys generate',
    });
  }
  const key = validatePrivateKey(value, opts.privateKey !== undefined ? '--private-key' : '--private-key-file');
  if (opts.privateKey !== undefined)
    deps.ui.warn(
      '--private-key given on the command line is now in your shell history and visible in the process list; next time pass --private-key-file <path>.',
    );
  return key;
}

const NO_PAYLOAD = 'no payload: pass --payload <text>, --payload-file <path>, or pipe it on stdin';

/**
 * The payload bytes: --payload (UTF-8 of the text), --payload-file or stdin (exact bytes). An empty
 * stdin is refused: it is what a script that forgot the pipe sends (/dev/null, a closed stdin), and
 * stamping it would print a valid-looking header over nothing. An explicit empty flag or file is kept.
 */
export async function readPayload(opts: { payload?: string; payloadFile?: string }, deps: Deps): Promise<Uint8Array> {
  const given = { text: opts.payload, file: opts.payloadFile };
  const bytes = await readFlagOrFile(given, { text: '--payload', file: '--payload-file' }, deps);
  if (bytes !== undefined) return bytes;
  // Reading a terminal would wait for Ctrl-D with no prompt; ask for the flag instead.
  if (deps.io.stdinIsTTY) throw new UsageError(NO_PAYLOAD, { input: '--payload' });
  const piped = await readAll(deps.io.stdin);
  if (piped.length === 0) throw new UsageError(`stdin was empty; ${NO_PAYLOAD}`, { input: '--payload' });
  return piped;
}
