/**
 * What the command root does around commander (program.ts): argv rewrites commander does not
 * offer, --json for commander's own parse errors, and the help layout. Part of the root, so it
 * imports nothing.
 */

/**
 * Help lists what can be run first, then the options: a newcomer reads `svc --help` for the
 * commands. Moves the (Global) Options blocks after the Commands block, when there is one.
 */
export function optionsAfterCommands(text: string): string {
  const blocks = text.replace(/\n+$/, '').split('\n\n');
  const isOptions = (b: string) => /^(Global )?Options:/.test(b);
  // "Commands:", or a group's heading in the root help ("Core commands:").
  const lastCommands = blocks.findLastIndex((b) => /^([A-Z][a-z]+ c|C)ommands:/.test(b));
  if (lastCommands === -1) return text;
  const options = blocks.filter(isOptions);
  const before = blocks.slice(0, lastCommands + 1).filter((b) => !isOptions(b));
  return [...before, ...options, ...blocks.slice(lastCommands + 1)].join('\n\n') + '\n';
}

/**
 * argv as commander should see it: `svc help <noun> <verb>` is `svc <noun> <verb> --help`, and
 * `svc --version --json` is `svc --json version` (Node and platform too).
 */
export function rewriteArgv(argv: string[]): string[] {
  const args = argv.slice(2);
  const at = args.indexOf('help');
  if (at !== -1 && args.slice(0, at).every((a) => a.startsWith('-')) && args.length - at >= 3) {
    return [...argv.slice(0, 2), ...args.slice(0, at), ...args.slice(at + 1), '--help'];
  }
  if (wantsJson(argv) && (args.includes('--version') || args.includes('-V'))) {
    return [...argv.slice(0, 2), ...args.filter((a) => a !== '--version' && a !== '-V'), 'version'];
  }
  return argv;
}

/** True when --json is on the command line (before any `--`): decided before commander parses. */
export function wantsJson(argv: string[]): boolean {
  const end = argv.indexOf('--');
  const flags = end === -1 ? argv : argv.slice(0, end);
  return flags.includes('--json') || flags.includes('--jq') || flags.some((a) => a.startsWith('--jq='));
}

/** A commander parse error as the `usage` error of the --json contract, naming the word it tripped on. */
/**
 * Commander's parse errors in svc's own style (commands/render-error.ts): `Error: …` and `Hint: …`
 * lines, not `error: …` and `(Did you mean …?)`, so one run never shows two styles of error.
 */
export function restyleParseError(
  text: string,
  c: { red(s: string): string; dim(s: string): string },
  known: KnownIds = {},
): string {
  return meantCommand(text, known)
    .replace(/^error: (.)/, (_m, first: string) => `${c.red('Error:')} ${first}`)
    .replace(/\n\(Did you mean (.+)\?\)/, (_m, what: string) => `\n${c.dim(`Hint: did you mean ${what}?`)}`);
}

/**
 * Words other CLIs use for what svc calls otherwise: commander's nearest spelling (logout → login,
 * freeze → create) would send the user the wrong way, so the suggestion names the real command.
 */
const MEANT: Readonly<Record<string, string>> = {
  logout: 'svc session revoke <Session:id>',
  freeze: 'svc cards update <Card:id> --state FROZEN',
  unfreeze: 'svc cards update <Card:id> --state ACTIVE',
  listen: 'svc webhook listen',
};

/** Ids svc knows for a command line, by the placeholder of MEANT they fill (`<Card:id>` → `Card:…`). */
export type KnownIds = Readonly<Record<string, string>>;

/** The card `svc cards freeze Card:…` names: the word after the verb MEANT maps. */
export function idsInWords(words: readonly string[]): KnownIds {
  const at = words.findIndex((w) => w === 'freeze' || w === 'unfreeze');
  const card = at === -1 ? undefined : words[at + 1];
  return card !== undefined && /^Card:\S+$/.test(card) ? { '<Card:id>': card } : {};
}

/**
 * Commander's "unknown command" text with the suggestion of MEANT, where the word is one of its
 * keys, its placeholders filled with the ids svc knows.
 */
function meantCommand(text: string, known: KnownIds = {}): string {
  const word = /^error: unknown command '([^']+)'/.exec(text)?.[1];
  const meant = word !== undefined ? MEANT[word]?.replace(/<\w+:id>/g, (p) => known[p] ?? p) : undefined;
  if (meant === undefined) return text;
  return text.replace(/\n\(Did you mean .+\?\)|(?=\n|$)/, `\n(Did you mean ${meant}?)`);
}

export function parseErrorJSON(error: Error, code: string, known: KnownIds = {}): Record<string, unknown> {
  const [message = '', suggestion] = meantCommand(error.message, known)
    .replace(/^error: /, '')
    .split(/\n\(Did you mean (.+)\?\)/);
  const field = /'([^']+)'/.exec(message)?.[1];
  return {
    type: 'usage',
    message,
    ...(field ? { field } : {}),
    code: code.replace(/^commander\./, ''),
    hint: `${suggestion ? `Did you mean ${suggestion}? ` : ''}Run with --help for usage.`,
  };
}
