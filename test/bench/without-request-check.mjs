/**
 * Module hooks for `emulator-ab.mjs --without-request-check`: in the process that registers them,
 * the emulator's request check (dist/src/emulator/kernel/request-check/index.js) is replaced by one
 * that lets every request through and reads no validator, so the same build runs with the check and
 * without it, side by side. Only the bench uses this; the emulator has no such switch. Should the
 * real module gain an export the kernel imports, the emulator fails to load instead of running
 * half-checked.
 */
const CHECK = '/dist/src/emulator/kernel/request-check/index.js';

export async function load(url, context, nextLoad) {
  if (!url.endsWith(CHECK)) return nextLoad(url, context);
  return {
    format: 'module',
    shortCircuit: true,
    source: 'export const checkRequest = () => undefined;\nexport const operationOf = () => undefined;\n',
  };
}
