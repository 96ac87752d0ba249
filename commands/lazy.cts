/**
 * Lazy command actions: the commander tree is declared up front (cheap), but a command's module,
 * and everything it imports, loads only when that command runs. This keeps `svc --help` and
 * `svc --version` close to bare-node startup.
 */
import type { Command } from 'commander';
import type { Deps, GlobalOptions } from './deps.js';

export interface CommandModule<T> {
  run(opts: T, deps: Deps): Promise<void>;
}

/** Set by program.cts: builds Deps from the global flags when a command runs (async: deps.ts loads lazily). */
export type DepsFactory = (globals: GlobalOptions) => Deps | Promise<Deps>;

let depsFactory: DepsFactory | undefined;
export function setDepsFactory(factory: DepsFactory): void {
  depsFactory = factory;
}

/** Reads the global flags from the root command, whatever the nesting. */
export function globalsOf(command: Command): GlobalOptions {
  let root = command;
  while (root.parent) root = root.parent;
  const o = root.opts() as Record<string, unknown>;
  return {
    profile: o.profile as string | undefined,
    baseUrl: o.baseUrl as string | undefined,
    json: Boolean(o.json),
    input: o.input !== false,
    yes: Boolean(o.yes),
    verbose: Boolean(o.verbose),
    color: o.color !== false,
  };
}

/**
 * A commander action that imports `load()` and calls its `run(toOpts(args, options), deps)`.
 * `toOpts` receives the positional arguments and the command's own options.
 */
export function lazyAction<T>(
  load: () => Promise<CommandModule<T>>,
  toOpts: (args: string[], options: Record<string, unknown>) => T,
): (...actionArgs: unknown[]) => Promise<void> {
  return async (...actionArgs: unknown[]) => {
    const command = actionArgs[actionArgs.length - 1] as Command;
    const options = command.opts() as Record<string, unknown>;
    const args = command.args.slice(0, command.registeredArguments.length);
    if (!depsFactory) throw new Error('program.cts did not install a deps factory');
    const [deps, mod] = await Promise.all([depsFactory(globalsOf(command)), load()]);
    await mod.run(toOpts(args, options), deps);
  };
}
