/**
 * The value of `svc config set <key> -`: a prompt on a terminal (masked for secrets), otherwise
 * stdin. This keeps secrets out of argv, where shell history and `ps` would see them.
 */
import type { Deps } from '../deps.js';
import { canPrompt } from '../deps.js';
import { UsageError } from '../../src/errors.js';
import { readAll } from '../input.js';
import type { ConfigKey } from './keys.js';

export async function readValueFromInput(key: ConfigKey, deps: Deps): Promise<string> {
  if (deps.io.stdinIsTTY) {
    if (!canPrompt(deps)) {
      throw new UsageError(
        `no value for ${key.name}: pipe it on stdin (e.g. printf %s "$VALUE" | svc config set ${key.name} -)`,
        { input: key.name },
      );
    }
    const question = {
      message: `${key.name}:`,
      validate: (v: string) => (v.trim() === '' ? 'A value is required' : true),
    } as const;
    return key.secret ? deps.prompter.password(question) : deps.prompter.input(question);
  }
  // Trailing newlines come from `echo` and heredocs; they are never part of a key or secret.
  const text = (await readAll(deps.io.stdin)).toString('utf8').replace(/[\r\n]+$/, '');
  if (text.trim() === '') throw new UsageError(`no value for ${key.name} on stdin`, { input: key.name });
  return text;
}
