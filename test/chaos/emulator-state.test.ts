/**
 * The emulator with --state, SIGKILLed in the middle of heavy writes, again and again: every restart
 * loads a whole file whose balance reconciles with what was acknowledged (every acknowledged credit
 * is there; at most the ones in flight at the kill are there unacknowledged). A truncated or corrupt
 * state file is refused with a clear error naming it, and left as it was (never silently reset).
 */
import { spawn } from 'node:child_process';
import { copyFileSync, readFileSync, statSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { Agent, request } from 'undici';
import { runSvc, SVC_BIN, svcEnv, tempConfigDir } from '../helpers/spawn-svc.js';
import { LARGE, printFigures, report } from './report.js';
import { tempDir } from '../helpers/temp-dir.js';

afterAll(printFigures);
const WRITERS = 8;

interface Ready {
  baseUrl: string;
  apiTokenId: string;
  apiClientSecret: string;
  fixtures: { accountId: string };
}

async function start(state: string, configDir: string) {
  const child = spawn(process.execPath, [SVC_BIN, '--json', 'emulator', 'start', '--port', '0', '--state', state], {
    env: svcEnv(configDir),
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let out = '';
  let err = '';
  child.stderr.setEncoding('utf8').on('data', (d: string) => (err += d));
  const exited = new Promise<number | null>((resolve) => child.on('close', (code) => resolve(code)));
  const ready = await new Promise<Ready>((resolve, reject) => {
    child.stdout.setEncoding('utf8').on('data', (d: string) => {
      out += d;
      if (out.includes('\n')) resolve(JSON.parse(out.split('\n')[0]!) as Ready);
    });
    void exited.then((code) => reject(new Error(`emulator exited ${code} before it was ready: ${err}`)));
  });
  const auth = `Basic ${Buffer.from(`${ready.apiTokenId}:${ready.apiClientSecret}`).toString('base64')}`;
  return { child, ready, auth, exited };
}

async function balance(baseUrl: string, auth: string, accountId: string): Promise<number> {
  const res = await request(`${baseUrl}/internal-accounts/${accountId}`, { headers: { authorization: auth } });
  const body = (await res.body.json()) as { balance: { amount: number } };
  return body.balance.amount;
}

describe('emulator --state under SIGKILL', () => {
  it(
    'restarts every time with a whole file whose balance reconciles with the acknowledged writes',
    async () => {
      const state = join(tempDir('svc-state-chaos-'), 'state.json');
      const configDir = tempConfigDir();
      const cycles = LARGE ? 25 : 3;
      let acknowledgedTotal = 0;
      let inFlightTotal = 0;
      let expectedMin = -1;
      let expectedMax = -1;
      let bad = 0;
      for (let cycle = 0; cycle < cycles; cycle++) {
        const emu = await start(state, configDir);
        const { baseUrl, fixtures } = emu.ready;
        const now = await balance(baseUrl, emu.auth, fixtures.accountId);
        if (expectedMin >= 0 && (now < expectedMin || now > expectedMax)) bad++;
        expect(
          expectedMin < 0 || (now >= expectedMin && now <= expectedMax),
          `cycle ${cycle}: balance ${now}, expected ${expectedMin}..${expectedMax}`,
        ).toBe(true);
        const dispatcher = new Agent({ connections: WRITERS });
        let acknowledged = 0;
        let sent = 0;
        let stop = false;
        const writers = Array.from({ length: WRITERS }, async () => {
          while (!stop) {
            sent++;
            try {
              const res = await request(`${baseUrl}/sandbox/internal-accounts/${fixtures.accountId}/fund`, {
                method: 'POST',
                body: '{"amount":1}',
                headers: { authorization: emu.auth, 'content-type': 'application/json' },
                dispatcher,
              });
              await res.body.dump();
              if (res.statusCode === 200) acknowledged++;
            } catch {
              return; // killed
            }
          }
        });
        await new Promise((r) => setTimeout(r, 150 + ((cycle * 97) % 300))); // a different moment each cycle
        emu.child.kill('SIGKILL');
        stop = true;
        await Promise.all(writers);
        await emu.exited;
        await dispatcher.destroy();
        acknowledgedTotal += acknowledged;
        inFlightTotal += sent - acknowledged;
        // Every acknowledged credit was saved (the emulator answers after the change is in memory; the
        // file may trail it by the write in flight, so up to WRITERS unacknowledged ones may also be in).
        expectedMin = now + acknowledged;
        expectedMax = now + sent;
        expect(() => JSON.parse(readFileSync(state, 'utf8'))).not.toThrow(); // never a half-written file
      }
      const last = await start(state, configDir);
      const final = await balance(last.ready.baseUrl, last.auth, last.ready.fixtures.accountId);
      last.child.kill('SIGTERM');
      await last.exited;
      report({
        suite: 'emulator',
        attack: `--state SIGKILLed during writes (${WRITERS} writers), ${cycles} restarts`,
        tried: cycles,
        survived: cycles - bad,
        lost: bad,
        detail: `${acknowledgedTotal} credits acknowledged, ${inFlightTotal} in flight at kills; last balance ${final}`,
      });
      expect(final).toBeGreaterThanOrEqual(expectedMin);
      expect(final).toBeLessThanOrEqual(expectedMax);
    },
    LARGE ? 600_000 : 60_000,
  );

  it('refuses a truncated or corrupt state file with an error naming it, and leaves it as it was', async () => {
    const dir = tempDir('svc-state-corrupt-');
    const good = join(dir, 'good.json');
    const emu = await start(good, tempConfigDir());
    emu.child.kill('SIGTERM');
    await emu.exited;
    const text = readFileSync(good, 'utf8');
    const cases: Array<[string, string]> = [
      ['truncated', text.slice(0, Math.floor(text.length / 2))],
      ['empty', ''],
      ['garbage', '\u0000\u0001not json at all'],
      ['another JSON file', '{"hello":"world"}'],
    ];
    let refused = 0;
    for (const [what, content] of cases) {
      const path = join(dir, `${what.replace(/\W/g, '-')}.json`);
      writeFileSync(path, content);
      const before = statSync(path).mtimeMs;
      const r = await runSvc(['emulator', 'start', '--port', '0', '--state', path]);
      const ok =
        r.code === 2 &&
        r.stderr.includes(path) &&
        /--state/.test(r.stderr) &&
        readFileSync(path, 'utf8') === content &&
        statSync(path).mtimeMs === before;
      if (ok) refused++;
      expect({ what, code: r.code, namesFile: r.stderr.includes(path), stderr: r.stderr.slice(0, 300) }).toMatchObject({
        what,
        code: 2,
        namesFile: true,
      });
      expect(readFileSync(path, 'utf8')).toBe(content);
    }
    copyFileSync(good, join(dir, 'still-good.json'));
    report({
      suite: 'emulator',
      attack: 'corrupt --state files refused with a clear error, left untouched',
      tried: cases.length,
      survived: refused,
      lost: cases.length - refused,
    });
  }, 60_000);
});
