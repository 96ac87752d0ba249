/**
 * An operation's generated validators, read from its module (opN.cjs) when its first request
 * arrives and kept: starting the emulator reads none of them, and a request pays only for its own
 * operation (the three external-account creates, the largest, share one module). The modules are
 * in generated/ beside this file in the sources (and tsc's output), request-validators/
 * beside the bundle in the package (.ci/build.mjs copies them there).
 */
import { existsSync } from 'node:fs';
import { createRequire } from 'node:module';
import { fileURLToPath } from 'node:url';
import { FORMATS } from './formats.js';
import type { OperationValidators, ValidatorModule } from './generated/operations.js';
import { characterCount } from './runtime.js';

const FOLDERS = ['./generated/', './request-validators/'];

let folder: string | undefined;
const loaded = new Map<string, Record<string, OperationValidators>>();

function folderOf(module: string): string {
  if (folder) return folder;
  for (const name of FOLDERS) {
    const path = fileURLToPath(new URL(name, import.meta.url));
    if (existsSync(`${path}${module}`)) return (folder = path);
  }
  throw new Error(
    `the request validators are missing (${module} in generated/ beside src/emulator/kernel/request-check, or request-validators/ beside the bundle): run npm run build`,
  );
}

/** The validators of operation `key` (`POST /customers`), in `module` (`op12.cjs`), read on first use. */
export function validatorsOf(module: string, key: string): OperationValidators {
  let validators = loaded.get(module);
  if (!validators) {
    const make = createRequire(import.meta.url)(`${folderOf(module)}${module}`) as ValidatorModule;
    validators = make(FORMATS, characterCount);
    loaded.set(module, validators);
  }
  const own = validators[key];
  if (!own) throw new Error(`the request validators are stale (${module} has no ${key}): run npm run build`);
  return own;
}
