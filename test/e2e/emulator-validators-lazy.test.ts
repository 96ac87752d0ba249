/**
 * The emulator's request validators cost nothing at start: `svc emulator start` reads no
 * operation's validator module before its ready line, and a request reads its own operation's
 * module once (src/emulator/kernel/request-check/load.ts); operations sharing a large schema (the
 * external-account creates) share one module.
 * Not timed: a preload records every request-validators module the built CLI requires.
 */
import { existsSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { basename, join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { type LongRunningSvc, startSvc, tempConfigDir } from '../helpers/spawn-svc.js';
import type { EmulatorReady } from '../helpers/spawned-emulator.js';

const dirs: string[] = [];
let running: LongRunningSvc | undefined;
afterEach(async () => {
  await running?.stop();
  running = undefined;
  for (const dir of dirs.splice(0)) rmSync(dir, { recursive: true, force: true });
});

/** A preload that appends the path of each validator module required to `log`. */
function hookIn(dir: string, log: string): string {
  const hook = join(dir, 'hook.cjs');
  writeFileSync(
    hook,
    `const Module = require('node:module');
const load = Module._load;
Module._load = function (request, ...rest) {
  if (/op\\d+\\.cjs$/.test(request)) require('node:fs').appendFileSync(${JSON.stringify(log)}, request + '\\n');
  return load.call(this, request, ...rest);
};`,
  );
  return hook;
}

/** `svc emulator start` with the preload; `loaded` lists the validator modules read so far. */
async function startRecorded() {
  const dir = tempConfigDir();
  dirs.push(dir);
  const log = join(dir, 'loaded.txt');
  running = startSvc(['--json', 'emulator', 'start', '--port', '0'], {
    configDir: dir,
    env: { NODE_OPTIONS: `--require ${hookIn(dir, log)}` },
  });
  const ready = JSON.parse(await running.firstLine) as EmulatorReady;
  const loaded = () => (existsSync(log) ? readFileSync(log, 'utf8').trim().split('\n') : []);
  const auth = `Basic ${Buffer.from(`${ready.apiTokenId}:${ready.apiClientSecret}`).toString('base64')}`;
  const call = (method: string, path: string, body?: unknown) =>
    fetch(`${ready.baseUrl}${path}`, {
      method,
      headers: { authorization: auth, 'content-type': 'application/json' },
      ...(body === undefined ? {} : { body: JSON.stringify(body) }),
    });
  return { loaded, call };
}

describe('emulator request validators', () => {
  it('are read per operation on its first request, none at start', async () => {
    const { loaded, call } = await startRecorded();
    expect(loaded()).toEqual([]);

    expect((await call('GET', '/customers?limit=2')).status).toBe(200);
    expect((await call('GET', '/customers?limit=3')).status).toBe(200);
    const first = loaded();
    expect(first).toHaveLength(1);
    expect(first[0]).toContain(join('dist', 'cli', 'request-validators'));

    // Another operation reads its own module; its schema check still refuses a bad body.
    const refused = await call('POST', '/customers', { customerType: 'NOT_A_TYPE' });
    expect(refused.status).toBe(400);
    expect(((await refused.json()) as { code: string }).code).toBe('INVALID_INPUT');
    const second = loaded();
    expect(second).toHaveLength(2);
    expect(new Set(second.map((f) => basename(f))).size).toBe(2);
  });

  it('of the external-account creates are one module, read once, refusing for each operation', async () => {
    const { loaded, call } = await startRecorded();
    const bad = { currency: 'USD', accountInfo: { accountType: 'NOT_A_TYPE' } };
    for (const path of ['/customers/external-accounts', '/platform/external-accounts']) {
      const refused = await call('POST', path, bad);
      expect(refused.status).toBe(400);
      const body = (await refused.json()) as { code: string; message: string };
      expect(body.code).toBe('INVALID_INPUT');
      expect(body.message).toContain('accountInfo.accountType');
    }
    expect(loaded()).toHaveLength(1);
  });
});
