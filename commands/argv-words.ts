/**
 * The command words of a command line (`svc --profile dev session refresh` → session, refresh):
 * its positional words, skipping the global flags and the values of those that take one. One
 * scanner for the two places that read them before commander parses: the root (commands/main.ts),
 * which builds only the invoked noun's commands, and bin/svc.js, which names the code cache by
 * them. bin/svc.js cannot load TypeScript, so the build writes this module, with the global flags
 * that take a value, to dist/cli/argv-words.cjs. It imports nothing: it runs on every start.
 */

/** The positional words of `args` (argv without node and the script), in order. */
export function commandWords(args: readonly string[], valueFlags: readonly string[]): string[] {
  const words: string[] = [];
  for (let i = 0; i < args.length; i++) {
    const a = args[i]!;
    if (valueFlags.includes(a)) i++;
    else if (a === 'help' && i + 1 < args.length && words.length === 0)
      continue; // `svc help session` is about the session noun
    else if (a.startsWith('--') && a.includes('='))
      continue; // --profile=x carries its own value
    else if (!a.startsWith('-')) words.push(a);
  }
  return words;
}

/**
 * True when the command line only asks for help: no command word, or --help, -h or help anywhere.
 * Used by bin/svc.js, through the built file.
 * @public
 */
export function asksForHelp(args: readonly string[], valueFlags: readonly string[]): boolean {
  return commandWords(args, valueFlags).length === 0 || args.some((a) => a === '--help' || a === '-h' || a === 'help');
}
