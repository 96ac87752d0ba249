/**
 * The one way a command takes a value that may be long, binary or secret (README "Values from a
 * file or stdin"):
 * - the value itself on its flag (`--payload <text>`, `--body <text>`);
 * - a file on the flag's `-file` twin (`--payload-file <path>`), read as exact bytes;
 * - stdin when that path is `-` (`--body-file -`), or when a flag documented as taking `-` gets it
 *   (`--code -`, `svc config set <key> -`): secrets stay out of argv and shell history.
 * Keys that are files by nature also take `@path` on their own flag (`--public-key @key.pem`).
 * Errors name the flag to fix and never quote a value.
 */
import { readFile } from 'node:fs/promises';
import { UsageError } from '../src/errors.js';
import type { Deps } from './deps.js';

/** Everything a stream delivers until it ends, as exact bytes. */
export async function readAll(stream: NodeJS.ReadableStream): Promise<Buffer> {
  const chunks: Buffer[] = [];
  for await (const chunk of stream) chunks.push(typeof chunk === 'string' ? Buffer.from(chunk) : Buffer.from(chunk));
  return Buffer.concat(chunks);
}

/** The bytes of `path` (`-`: stdin), or a UsageError naming `flag`. */
async function readFileInput(path: string, flag: string, deps: Pick<Deps, 'io'>): Promise<Buffer> {
  if (path === '-') return readAll(deps.io.stdin);
  try {
    return await readFile(path);
  } catch (error) {
    const code = (error as NodeJS.ErrnoException).code ?? 'unreadable';
    throw new UsageError(`cannot read ${flag} ${path} (${code})`, { input: flag });
  }
}

/** A value that is `@path` is the content of that file (UTF-8); any other value is itself. */
export async function textOrAtFile(value: string, flag: string, deps: Pick<Deps, 'io'>): Promise<string> {
  return value.startsWith('@') ? (await readFileInput(value.slice(1), flag, deps)).toString('utf8') : value;
}

/**
 * Refuses two flags that say the same thing in two ways (`--payload` and `--payload-file`): the
 * "pass one or the other, not both" check every such pair needs, worded once.
 */
export function atMostOne(given: Record<string, unknown>): void {
  const flags = Object.entries(given)
    .filter(([, value]) => value !== undefined && value !== false)
    .map(([flag]) => flag);
  if (flags.length > 1) {
    throw new UsageError(`pass either ${flags.join(' or ')}, not both`, { input: flags[0] });
  }
}

/**
 * A value from `--x <text>` (its UTF-8 bytes) or `--x-file <path>` (exact bytes, `-` for stdin),
 * after refusing both at once; undefined when neither is given, for the caller to decide.
 */
export async function readFlagOrFile(
  given: { text: string | undefined; file: string | undefined },
  flags: { text: string; file: string },
  deps: Pick<Deps, 'io'>,
): Promise<Buffer | undefined> {
  atMostOne({ [flags.text]: given.text, [flags.file]: given.file });
  if (given.text !== undefined) return Buffer.from(given.text, 'utf8');
  if (given.file !== undefined) return readFileInput(given.file, flags.file, deps);
  return undefined;
}
