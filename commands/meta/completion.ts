/**
 * `svc completion bash|zsh|fish`: a completion script generated from the command tree itself, so
 * a new verb or flag completes without anyone editing a script. Nouns, then verbs, then the verb's
 * flags and the global flags; where a value goes (after `--profile`, or `svc session use `), the
 * values its spec declares (completion-values.ts) or file names, and never a flag. `--values <kind>`
 * prints the stored ones for the scripts.
 */
import type { OptionsOf } from '../verb.js';
import type * as verbs from './verbs.js';
import type { Deps } from '../deps.js';
import { UsageError } from '../../src/errors.js';
import { parseChoice } from '../../src/choice.js';
import { storedValues } from './completion-values.js';
import { bashScript, zshScript } from './completion-bash.js';
import { fishScript } from './completion-fish.js';

export type CompletionOptions = OptionsOf<typeof verbs.completion>;

const SHELLS = ['bash', 'zsh', 'fish'] as const;

export async function run(opts: CompletionOptions, deps: Deps): Promise<void> {
  const { ui } = deps;
  if (opts.values !== undefined) {
    for (const value of await storedValues(opts.values, deps)) ui.out(value);
    return;
  }
  if (opts.shell === undefined) throw new UsageError(`Name the shell: ${SHELLS.join(', ')}.`, { input: '<shell>' });
  const shell = parseChoice(opts.shell, SHELLS, '<shell>');
  const tree = await deps.commands();
  const script = shell === 'bash' ? bashScript(tree) : shell === 'zsh' ? zshScript(tree) : fishScript(tree);
  ui.out(script.trimEnd());
}
