/** `svc version` and `svc completion <shell>`: about svc itself. */
import { arg, defineVerb, verb } from '../verb.js';

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
  args: { shell: arg.required('<shell>', 'bash, zsh or fish') },
  help: `
Examples:
  $ svc completion bash > ~/.local/share/bash-completion/completions/svc
  $ svc completion zsh > "\${fpath[1]}/_svc"
  $ svc completion fish > ~/.config/fish/completions/svc.fish`,
});

export const versionVerb = verb(version, () => import('./version.js'));
export const completionVerb = verb(completion, () => import('./completion.js'));
