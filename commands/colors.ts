/**
 * Colour functions for one stream. chalk is slow to load next to a command's own work, and most
 * scripted runs (pipes, CI, NO_COLOR) print no colour at all, so chalk is loaded only when colour is on; otherwise every style,
 * however chained (`c.bold.cyan(text)`), returns its text unchanged.
 */
import type { ChalkInstance } from 'chalk';
import { requirePackage } from './require-package.js';

/** A stand-in with chalk's shape whose every style is the identity. */
const plain: ChalkInstance = new Proxy(((...texts: unknown[]) => texts.join(' ')) as unknown as ChalkInstance, {
  get: (_target, property) => (property === 'level' ? 0 : plain),
});

export function colors(enabled: boolean): ChalkInstance {
  if (!enabled) return plain;
  const { Chalk } = requirePackage<typeof import('chalk')>('chalk');
  return new Chalk({ level: 1 });
}

/** Colour decision shared by every stream: --no-color and NO_COLOR win, then FORCE_COLOR, then TTY. */
export function decideColor(globals: { color: boolean }, env: NodeJS.ProcessEnv, isTTY: boolean): boolean {
  if (!globals.color) return false;
  if (env.NO_COLOR !== undefined && env.NO_COLOR !== '') return false;
  if (env.FORCE_COLOR !== undefined) return env.FORCE_COLOR !== '0' && env.FORCE_COLOR !== 'false';
  return isTTY;
}
