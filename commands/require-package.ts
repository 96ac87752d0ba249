/**
 * Loads a package from node_modules on first use: chalk and ora are ES modules that only a terminal
 * needs, loaded synchronously through require(esm) (Node 20.19+). The require function itself is made
 * on first use too: a scripted run, which never colours nor spins, does not pay for it, nor for
 * node:module, which on Node 20 brings the ES-module loader with it: it is taken with
 * process.getBuiltinModule at that moment rather than imported by the command root.
 */
let requireModule: NodeJS.Require | undefined;

export function requirePackage<T>(name: string): T {
  requireModule ??= process.getBuiltinModule('node:module').createRequire(import.meta.url);
  return requireModule(name) as T;
}
