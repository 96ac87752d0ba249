/** `svc version` and `svc completion <shell>`: about svc itself. */
import { arg, defineVerb, flag, verb } from '../verb.js';
import { STORED_KINDS } from './stored-kinds.js';

export const version = defineVerb({
  name: 'version',
  description: 'print the version (--json: with the Node.js version and platform, for bug reports)',
  help: `
Examples:
  $ svc version
  $ svc --json version
  $ svc --version --json`,
});

export const completion = defineVerb({
  name: 'completion',
  description: 'print a shell completion script for bash, zsh or fish',
  args: { shell: arg.optional('[shell]', 'bash, zsh or fish') },
  flags: {
    values: flag.choices(
      '--values <kind>',
      'print the stored sessions or profiles, one a line (what the scripts call)',
      STORED_KINDS,
    ),
  },
  help: `
Completes nouns, verbs and flags, and where a value goes its values: stored session ids
(session use/revoke/refresh, --session), profile names (--profile, config use/delete/rename),
config keys, scenario names (trigger) and event types (--events, --type).

Examples:
  $ svc completion bash > ~/.local/share/bash-completion/completions/svc
  $ svc completion zsh > "\${fpath[1]}/_svc"
  $ svc completion fish > ~/.config/fish/completions/svc.fish`,
});

export const versionVerb = verb(version, () => import('./version.js'));
export const completionVerb = verb(completion, () => import('./completion.js'));
