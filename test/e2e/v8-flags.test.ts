/**
 * When bin/svc.js changes V8's flags (README "Performance"): a command that makes a request through
 * undici (a proxy from the environment; a direct connection uses node:http, src/http/node-transport.ts)
 * keeps undici's WebAssembly parser on the baseline tier, but sets that flag only at its first connection,
 * once the HTTP and crypto built-ins are loaded (V8 refuses Node's embedded code cache for any
 * built-in loaded after a flag change), and puts the flags back at exit (our code cache is written
 * then, and must match the next run's flags). Not timed: a preload records each flag change and
 * which built-ins were loaded at that moment.
 */
import { spawnSync } from 'node:child_process';
import { readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { closedPort } from '../helpers/closed-port.js';
import { SVC_BIN, svcEnv, tempConfigDir } from '../helpers/spawn-svc.js';

interface FlagChange {
  flags: string;
  builtinsLoaded: string[];
  atExit: boolean;
}

/** Runs the CLI with a preload that records every v8.setFlagsFromString call. */
function flagChangesOf(
  args: string[],
  extraEnv: NodeJS.ProcessEnv = {},
): { code: number | null; changes: FlagChange[] } {
  const dir = tempConfigDir();
  const report = join(dir, 'flags.json');
  const hook = join(dir, 'hook.cjs');
  writeFileSync(
    hook,
    `const v8 = require('node:v8');
const changes = [];
const set = v8.setFlagsFromString;
v8.setFlagsFromString = (flags) => {
  changes.push({ flags, atExit: Boolean(process._exiting), builtinsLoaded: process.moduleLoadList.filter((m) => m.startsWith('NativeModule ')).map((m) => m.slice('NativeModule '.length)) });
  return set(flags);
};
process.on('exit', () => require('node:fs').writeFileSync(${JSON.stringify(report)}, JSON.stringify(changes)));`,
  );
  const r = spawnSync(process.execPath, ['--require', hook, SVC_BIN, ...args], {
    env: svcEnv(dir, extraEnv),
    encoding: 'utf8',
  });
  return { code: r.status, changes: JSON.parse(readFileSync(report, 'utf8')) as FlagChange[] };
}

describe('V8 flags', () => {
  const fund = ['sandbox', 'fund', 'InternalAccount:00000000-0000-4000-8000-000000000000', '--amount', '5'];
  const credentials = { SERVICE_API_TOKEN_ID: 'id', SERVICE_API_CLIENT_SECRET: 'secret' };

  it('a request through a proxy keeps WebAssembly on Liftoff from its first connection, after the built-ins it needs load, and restores the flags at exit', async () => {
    const port = await closedPort();
    const { code, changes } = flagChangesOf(fund, {
      ...credentials,
      SERVICE_BASE_URL: 'https://api.service.invalid',
      HTTPS_PROXY: `http://127.0.0.1:${port}`,
    });
    expect(code).toBe(1); // refused: nothing listens where the proxy should be
    expect(changes.map((c) => c.flags)).toEqual([
      '--liftoff-only --no-wasm-tier-up --no-wasm-dynamic-tiering',
      '--no-liftoff-only --wasm-tier-up --wasm-dynamic-tiering',
    ]);
    const [set, restore] = changes as [FlagChange, FlagChange];
    expect(set.atExit).toBe(false);
    for (const builtin of ['http', 'net', 'stream', 'assert']) expect(set.builtinsLoaded).toContain(builtin);
    expect(restore.atExit).toBe(true);
  });

  it('a direct request, through node:http, changes none', async () => {
    const port = await closedPort();
    const { code, changes } = flagChangesOf(fund, { ...credentials, SERVICE_BASE_URL: `http://127.0.0.1:${port}` });
    expect(code).toBe(1); // refused: nothing listens there
    expect(changes).toEqual([]);
  });

  it.each([[['--help']], [['keys', 'generate', '--json']]])('svc %j, which connects nowhere, changes none', (args) => {
    const { code, changes } = flagChangesOf(args);
    expect(code).toBe(0);
    expect(changes).toEqual([]);
  });
});
