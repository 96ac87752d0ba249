/**
 * Shared input readers for `svc keys …`: a private key from a flag or a file, and a payload from a
 * flag, a file or stdin. Payloads from files and stdin are kept as exact bytes (no trimming, no
 * re-encoding), because a stamp signs bytes and one stray newline changes the signature.
 * Errors name the flag to pass and never include a key's value.
 */
import { readFile } from 'node:fs/promises';
import type { Deps } from '../deps.js';
import { UsageError } from '../../src/errors.js';
import { validatePrivateKey } from '../../src/crypto/keys.js';
import { readAll } from '../read-all.js';

async function readFlagFile(path: string, flag: string): Promise<Buffer> {
  try {
    return await readFile(path);
  } catch (error) {
    const code = (error as NodeJS.ErrnoException).code ?? 'unreadable';
    throw new UsageError(`cannot read ${flag} ${path} (${code})`, { field: flag });
  }
}

/** The private key (64 hex) from --private-key or --private-key-file, whitespace trimmed. */
export async function readPrivateKey(opts: { privateKey?: string; privateKeyFile?: string }): Promise<string> {
  if (opts.privateKey !== undefined && opts.privateKeyFile !== undefined) {
    throw new UsageError('pass either --private-key or --private-key-file, not both', { field: '--private-key' });
  }
  let value: string;
  if (opts.privateKey !== undefined) value = opts.privateKey.trim();
  else if (opts.privateKeyFile !== undefined) value = (await readFlagFile(opts.privateKeyFile, '--private-key-file')).toString('utf8').trim();
  else {
    throw new UsageError('a private key is required: pass --private-key <hex> or --private-key-file <path>', {
      field: '--private-key',
      hint: 'Generate one with: svc keys generate',
    });
  }
  return validatePrivateKey(value, opts.privateKey !== undefined ? '--private-key' : '--private-key-file');
}

const NO_PAYLOAD = 'no payload: pass --payload <text>, --payload-file <path>, or pipe it on stdin';

/**
 * The payload bytes: --payload (UTF-8 of the text), --payload-file or stdin (exact bytes). An empty
 * stdin is refused: it is what a script that forgot the pipe sends (/dev/null, a closed stdin), and
 * stamping it would print a valid-looking header over nothing. An explicit empty flag or file is kept.
 */
export async function readPayload(opts: { payload?: string; payloadFile?: string }, deps: Deps): Promise<Uint8Array> {
  if (opts.payload !== undefined && opts.payloadFile !== undefined) {
    throw new UsageError('pass either --payload or --payload-file, not both', { field: '--payload' });
  }
  if (opts.payload !== undefined) return Buffer.from(opts.payload, 'utf8');
  if (opts.payloadFile !== undefined) return readFlagFile(opts.payloadFile, '--payload-file');
  // Reading a terminal would wait for Ctrl-D with no prompt; ask for the flag instead.
  if (deps.io.stdinIsTTY) throw new UsageError(NO_PAYLOAD, { field: '--payload' });
  const piped = await readAll(deps.io.stdin);
  if (piped.length === 0) throw new UsageError(`stdin was empty; ${NO_PAYLOAD}`, { field: '--payload' });
  return piped;
}
