/**
 * The active session of the profile a command line selects, for the suggestion `svc logout` gets
 * (commands/argv.ts MEANT): `svc session revoke Session:…` to copy, not a placeholder. Loaded by
 * the command root for that word only; a store that cannot be read leaves the placeholder.
 */
import type { KnownIds } from './argv.js';

/** The profile `--profile X` or `--profile=X` names in `args`, if any. */
function profileFlag(args: readonly string[]): string | undefined {
  const at = args.indexOf('--profile');
  if (at !== -1) return args[at + 1];
  return args.find((a) => a.startsWith('--profile='))?.slice('--profile='.length);
}

export async function activeSessionIds(args: readonly string[], env: NodeJS.ProcessEnv): Promise<KnownIds> {
  try {
    const [{ openStore }, { selectProfile }] = await Promise.all([
      import('../src/store/store.js'),
      import('../src/store/resolve.js'),
    ]);
    const { effective } = selectProfile(openStore({ env }), env, profileFlag(args));
    return effective.activeSessionId ? { '<Session:id>': effective.activeSessionId } : {};
  } catch {
    return {};
  }
}
