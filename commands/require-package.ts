/**
 * Loads a package from node_modules on first use: chalk and ora are ES modules that only a terminal
 * needs, loaded synchronously through require(esm) (Node 20.19+). The require function itself is made
 * on first use too: a scripted run, which never colours nor spins, does not pay for it.
 */
import { createRequire } from 'node:module';

let requireModule: NodeJS.Require | undefined;

export function requirePackage<T>(name: string): T {
  requireModule ??= createRequire(import.meta.url);
  return requireModule(name) as T;
}
