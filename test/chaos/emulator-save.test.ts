/**
 * The emulator's --state file when it can no longer be saved (a real file size limit, `ulimit -f`,
 * in the emulator's own process), two emulators on one file, and files that are not state files.
 * Nothing acknowledged is lost: a write is answered 2xx only once saved, a failed save is 503 and
 * one stderr line, a stop after a failed save says what it lost and exits 1.
 */
import { spawn, spawnSync } from 'node:child_process';
import { mkdirSync, mkdtempSync, readFileSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, afterEach, describe, expect, it } from 'vitest';
import { request } from 'undici';
import { runSvc, SVC_BIN, svcEnv, tempConfigDir } from '../helpers/spawn-svc.js';
import { printFigures, report } from './report.js';
import { randomName, randomToken } from '../helpers/random-data.js';

afterAll(printFigures);
const temps: string[] = [];
afterEach(() => {
  for (const dir of temps.splice(0)) rmSync(dir, { recursive: true, force: true });
});
const tempDir = () => {
  const dir = mkdtempSync(join(tmpdir(), 'svc-state-save-'));
  temps.push(dir);
  return dir;
};

interface Ready {
  baseUrl: string;
  apiTokenId: string;
  apiClientSecret: string;
}

/**
 * `svc emulator start --state`, under a file size limit (KiB) when given: the limit is the process's
 * own (the soft one, so that prlimit can raise it again without privileges).
 */
async function start(state: string, limitKiB?: number) {
  const configDir = tempConfigDir();
  temps.push(configDir);
  const args = [SVC_BIN, '--json', 'emulator', 'start', '--port', '0', '--no-profile', '--state', state];
  const child =
    limitKiB === undefined
      ? spawn(process.execPath, args, { env: svcEnv(configDir), stdio: ['ignore', 'pipe', 'pipe'] })
      : spawn('bash', ['-c', `ulimit -S -f ${limitKiB} && exec "$0" "$@"`, process.execPath, ...args], {
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
  const call = async (method: string, path: string, body?: unknown) => {
    const res = await request(`${ready.baseUrl}${path}`, {
      method: method as 'GET',
      headers: { authorization: auth, 'content-type': 'application/json' },
      ...(body === undefined ? {} : { body: JSON.stringify(body) }),
    });
    return { status: res.statusCode, body: (await res.body.json()) as Record<string, unknown> };
  };
  return { child, ready, call, exited, stderr: () => err };
}

/** A customer whose name no magic suffix matches (its kycStatus is APPROVED). */
const customer = (n: number) => ({
  customerType: 'INDIVIDUAL',
  fullName: randomName('Chaos Writer'),
  platformCustomerId: `chaos-${n}-${randomToken(8)}`,
});

/** Creates customers until one is refused; returns the acknowledged ids and the refusal. */
async function writeUntilRefused(emu: Awaited<ReturnType<typeof start>>, max = 400) {
  const acknowledged: string[] = [];
  for (let n = 0; n < max; n++) {
    const r = await emu.call('POST', '/customers', customer(n));
    if (r.status === 201) acknowledged.push(r.body.id as string);
    else return { acknowledged, refused: r };
  }
  throw new Error(`${max} writes and none refused: the file size limit did not bite`);
}

const saveLines = (stderr: string) => stderr.split('\n').filter((l) => l.includes('cannot save the state file'));

describe('emulator --state when saving fails', () => {
  it('answers 503 naming the cause, prints one line, keeps reads, resumes when the limit is raised, loses nothing acknowledged at kill -9', async () => {
    const state = join(tempDir(), 'state.json');
    const emu = await start(state, 24);
    const { acknowledged, refused } = await writeUntilRefused(emu);
    expect(refused.status).toBe(503);
    expect(refused.body).toMatchObject({ status: 503, code: 'SERVICE_UNAVAILABLE', details: { cause: 'EFBIG' } });
    expect(refused.body.message).toContain(state);
    // More writes while it fails: each is refused, and still only one line is printed.
    for (let n = 0; n < 5; n++) expect((await emu.call('POST', '/customers', customer(1000 + n))).status).toBe(503);
    const lines = saveLines(emu.stderr());
    expect(lines).toHaveLength(1);
    expect(lines[0]).toContain(state);
    expect(lines[0]).toContain('EFBIG');
    // Reads keep working.
    const read = await emu.call('GET', `/customers/${acknowledged[0]}`);
    expect(read.status).toBe(200);
    // Raise the limit of the running emulator: the next write saves and is acknowledged.
    expect(spawnSync('prlimit', ['--pid', String(emu.child.pid), '--fsize=unlimited:']).status).toBe(0);
    const resumed = await emu.call('POST', '/customers', customer(2000));
    expect(resumed.status).toBe(201);
    acknowledged.push(resumed.body.id as string);
    expect(emu.stderr()).toContain('saved again');

    emu.child.kill('SIGKILL');
    await emu.exited;
    const again = await start(state);
    let lost = 0;
    for (const id of acknowledged) if ((await again.call('GET', `/customers/${id}`)).status !== 200) lost++;
    again.child.kill('SIGTERM');
    expect(await again.exited).toBe(0);
    report({
      suite: 'emulator',
      attack: '--state under ulimit -f: writes until refused, limit raised, kill -9, restart',
      tried: acknowledged.length,
      survived: acknowledged.length - lost,
      lost,
      detail: `first refusal ${refused.status} ${String((refused.body.details as { cause: string }).cause)}`,
    });
    expect(lost).toBe(0);
  }, 60_000);

  it('a Ctrl-C whose last save failed says what was not saved and exits 1', async () => {
    const state = join(tempDir(), 'state.json');
    const emu = await start(state, 24);
    const { acknowledged } = await writeUntilRefused(emu);
    emu.child.kill('SIGINT');
    const code = await emu.exited;
    const err = emu.stderr();
    expect(code).toBe(1);
    expect(err).toContain('stopped without saving');
    expect(err).toContain(state);
    expect(err).toContain('customers');
    expect(err).not.toContain('Interrupted');
    expect(err).not.toMatch(/\n\s+at /); // no stack trace
    // What was acknowledged is in the file all the same.
    const saved = JSON.parse(readFileSync(state, 'utf8')) as { customers: Record<string, unknown> };
    const lost = acknowledged.filter((id) => !(id in saved.customers)).length;
    report({
      suite: 'emulator',
      attack: '--state under ulimit -f, then Ctrl-C: the stop says what it lost',
      tried: acknowledged.length,
      survived: acknowledged.length - lost,
      lost,
    });
    expect(lost).toBe(0);
  }, 60_000);
});

describe('svc emulator stop after a failed save', () => {
  it('says what the background emulator could not save and exits 1', async () => {
    const state = join(tempDir(), 'state.json');
    const configDir = tempConfigDir();
    temps.push(configDir);
    const started = spawnSync(
      'bash',
      [
        '-c',
        'ulimit -S -f 24 && exec "$0" "$@"',
        process.execPath,
        SVC_BIN,
        '--json',
        'emulator',
        'start',
        '--detach',
        '--port',
        '0',
        '--no-profile',
        '--state',
        state,
      ],
      { env: svcEnv(configDir), encoding: 'utf8', timeout: 30_000 },
    );
    expect(started.status, started.stderr).toBe(0);
    const ready = JSON.parse(started.stdout.split('\n')[0]!) as Ready & { pid: number };
    const auth = `Basic ${Buffer.from(`${ready.apiTokenId}:${ready.apiClientSecret}`).toString('base64')}`;
    let status = 201;
    for (let n = 0; n < 400 && status === 201; n++) {
      const res = await request(`${ready.baseUrl}/customers`, {
        method: 'POST',
        headers: { authorization: auth, 'content-type': 'application/json' },
        body: JSON.stringify(customer(n)),
      });
      await res.body.dump();
      status = res.statusCode;
    }
    expect(status).toBe(503);
    const stop = await runSvc(['emulator', 'stop'], { configDir });
    expect(stop.code).toBe(1);
    expect(stop.stderr).toContain('stopped without saving');
    expect(stop.stderr).toContain(state);
    expect(stop.stderr).toContain('EFBIG');
    report({
      suite: 'emulator',
      attack: '--detach under ulimit -f, then emulator stop: exit 1 naming the loss',
      tried: 1,
      survived: 1,
      lost: 0,
    });
  }, 60_000);
});

describe('one emulator per state file', () => {
  it('refuses a second emulator on the same file naming the file and the pid, and takes over a dead one’s lock', async () => {
    const state = join(tempDir(), 'state.json');
    const first = await start(state);
    const second = await runSvc(['emulator', 'start', '--port', '0', '--no-profile', '--state', state]);
    expect(second.code).toBe(1);
    expect(second.stderr).toContain(state);
    expect(second.stderr).toContain(`pid ${first.child.pid}`);
    expect(second.stderr).not.toMatch(/\n\s+at /);
    const created = await first.call('POST', '/customers', customer(1));
    expect(created.status).toBe(201);
    first.child.kill('SIGKILL');
    await first.exited;
    // The lock of the killed one names a dead pid: the next start takes it over and finds the customer.
    const third = await start(state);
    expect((await third.call('GET', `/customers/${created.body.id}`)).status).toBe(200);
    third.child.kill('SIGTERM');
    expect(await third.exited).toBe(0);
    report({ suite: 'emulator', attack: 'two emulators on one --state file', tried: 1, survived: 1, lost: 0 });
  }, 60_000);
});

describe('--state that is not a state file', () => {
  it('refuses a folder naming it, with no stack trace, and leaves it as it was', async () => {
    const dir = tempDir();
    const folder = join(dir, 'a-folder');
    mkdirSync(folder);
    writeFileSync(join(folder, 'keep.txt'), 'mine');
    const r = await runSvc(['emulator', 'start', '--port', '0', '--no-profile', '--state', folder]);
    expect(r.code).toBe(2);
    expect(r.stderr).toContain(folder);
    expect(r.stderr).toContain('is a folder');
    expect(r.stderr).not.toMatch(/\n\s+at /);
    expect(readFileSync(join(folder, 'keep.txt'), 'utf8')).toBe('mine');
    expect(statSync(folder).isDirectory()).toBe(true);
    report({ suite: 'emulator', attack: '--state naming a folder', tried: 1, survived: 1, lost: 0 });
  }, 30_000);
});

describe('hand-edited state files', () => {
  it('refuses a record of the wrong shape or broken JSON, naming the file and the record, and leaves it as it was', async () => {
    const dir = tempDir();
    const good = join(dir, 'good.json');
    const emu = await start(good);
    emu.child.kill('SIGTERM');
    await emu.exited;
    const saved = JSON.parse(readFileSync(good, 'utf8')) as Record<string, Record<string, Record<string, unknown>>>;
    const accountId = Object.keys(saved.accounts!)[0]!;
    const customerId = Object.keys(saved.customers!)[0]!;
    const edit = (change: (s: typeof saved) => void) => {
      const copy = structuredClone(saved);
      change(copy);
      return JSON.stringify(copy, null, 2);
    };
    const cases: Array<[string, string, string]> = [
      ['balance as text', edit((s) => (s.accounts![accountId]!.balance = '100')), `accounts["${accountId}"].balance`],
      [
        'customer as a list',
        edit((s) => ((s.customers as Record<string, unknown>)[customerId] = [])),
        `customers["${customerId}"]`,
      ],
      [
        'id not its key',
        edit((s) => (s.customers![customerId]!.id = 'Customer:other')),
        `customers["${customerId}"].id`,
      ],
      [
        'required field gone',
        edit((s) => delete s.customers![customerId]!.umaAddress),
        `customers["${customerId}"].umaAddress`,
      ],
      ['broken JSON', `${JSON.stringify(saved, null, 2).slice(0, 200)}\n}`, 'not valid JSON'],
    ];
    let refused = 0;
    for (const [what, content, names] of cases) {
      const path = join(dir, `${what.replace(/\W/g, '-')}.json`);
      writeFileSync(path, content);
      const r = await runSvc(['emulator', 'start', '--port', '0', '--no-profile', '--state', path]);
      const ok =
        r.code === 2 &&
        r.stderr.includes(path) &&
        r.stderr.includes(names) &&
        !/\n\s+at /.test(r.stderr) &&
        readFileSync(path, 'utf8') === content;
      if (ok) refused++;
      expect({ what, code: r.code, stderr: r.stderr }).toMatchObject({
        code: 2,
        stderr: expect.stringContaining(names),
      });
      expect(r.stderr).toContain(path);
      expect(readFileSync(path, 'utf8')).toBe(content);
    }
    report({
      suite: 'emulator',
      attack: 'hand-edited --state records refused naming the record, file untouched',
      tried: cases.length,
      survived: refused,
      lost: cases.length - refused,
    });
  }, 60_000);
});
