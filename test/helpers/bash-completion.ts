/**
 * Runs a printed `svc completion bash` script in a real bash: `complete(words)` is what bash offers
 * for the last word, COMPREPLY joined by spaces.
 */
import { execFileSync } from 'node:child_process';

export function bashCompleter(script: string): (words: string[]) => string {
  return (words) =>
    execFileSync(
      'bash',
      [
        '-c',
        `source "$0"; COMP_WORDS=(${words.map((w) => `'${w}'`).join(' ')}); COMP_CWORD=${words.length - 1}; _svc; echo "\${COMPREPLY[*]}"`,
        script,
      ],
      { encoding: 'utf8' },
    ).trim();
}
