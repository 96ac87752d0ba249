/**
 * The listener's --store journal attacked: files that are not journals (a text
 * file, package.json, a symbolic link to a file elsewhere) are refused and left byte for byte as
 * they were; a damaged journal is refused naming the line, and --repair moves the damaged tail aside;
 * a dead app behind a growing journal costs each delivery the same, bounded memory and a bounded rate
 * of attempts; a hanging app costs each forward its own limit, holding up no other delivery.
 */
import { createHash } from 'node:crypto';
import { copyFileSync, lstatSync, mkdirSync, readFileSync, readdirSync, rmSync } from 'node:fs';
import { symlinkSync, writeFileSync } from 'node:fs';
import type { AddressInfo } from 'node:net';
import { createServer, type Server } from 'node:http';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { parseWebhookPublicKey, signWebhookBody } from '../../src/crypto/webhook-signature.js';
import { startListener, type ListenerEvent } from '../../src/webhook/listener.js';
import { REPO_ROOT, runSvc } from '../helpers/spawn-svc.js';
import { deliver, envelope, keys, localApp, post } from '../integration/webhook/helpers.js';
import { lines, spawnListener, type SpawnedListener } from '../integration/webhook/spawn-listener.js';
import { LARGE, printFigures, report } from './report.js';
import { tempDir } from '../helpers/temp-dir.js';

const root = tempDir('svc-chaos-journal-');
const running: SpawnedListener[] = [];
afterAll(() => {
  for (const l of running) l.kill();
  rmSync(root, { recursive: true, force: true });
  printFigures();
});
let n = 0;
const folder = (name: string) => {
  const path = join(root, `${name}-${++n}`);
  mkdirSync(path);
  return path;
};
const digest = (path: string) => createHash('sha256').update(readFileSync(path)).digest('hex');
const listenArgs = (store: string, ...more: string[]) => [
  'webhook',
  'listen',
  '--port',
  '0',
  '--public-key',
  keys.publicKeyPem,
  '--store',
  store,
  ...more,
];
async function listen(args: string[]): Promise<SpawnedListener> {
  const l = await spawnListener(args, folder('config'));
  running.push(l);
  return l;
}

describe('--store given a file svc did not create', () => {
  it('refuses a text file, package.json and a symbolic link to a file elsewhere, changing no byte of any', async () => {
    const dir = folder('not-journals');
    const elsewhere = folder('elsewhere');
    const text = join(dir, 'notes.txt');
    writeFileSync(text, 'remember the milk\nand the eggs\n');
    const pkg = join(dir, 'package.json');
    copyFileSync(join(REPO_ROOT, 'package.json'), pkg);
    const target = join(elsewhere, 'kept.txt');
    writeFileSync(target, 'a file of someone else\n');
    const link = join(dir, 'journal-link');
    symlinkSync(target, link);
    const cases: Array<[string, string, RegExp]> = [
      [text, text, /is not a listener journal/],
      [pkg, pkg, /is not a listener journal/],
      [link, target, /is a symbolic link/],
    ];
    let kept = 0;
    for (const [given, bytesOf, why] of cases) {
      const before = digest(bytesOf);
      const r = await runSvc(listenArgs(given), { configDir: folder('config') });
      expect(r.code).toBe(2);
      expect(r.stderr).toContain(given);
      expect(r.stderr).toMatch(why);
      expect(r.stderr).not.toMatch(/\n\s+at /); // no stack trace
      if (digest(bytesOf) === before) kept++;
    }
    expect(lstatSync(link).isSymbolicLink()).toBe(true);
    expect(readdirSync(dir).sort()).toEqual(['journal-link', 'notes.txt', 'package.json']);
    expect(readdirSync(elsewhere)).toEqual(['kept.txt']);
    report({
      suite: 'listener',
      attack: '--store: a text file, package.json, a symlink to a file elsewhere',
      tried: cases.length,
      survived: kept,
      lost: cases.length - kept,
      detail: 'refused, bytes compared',
    });
    expect(kept).toBe(cases.length);
  });

  it('refuses a damaged journal naming the line, leaving it as it was; --repair moves the damaged tail aside and keeps what came before', async () => {
    const dir = folder('damaged');
    const store = join(dir, 'journal');
    const events = Array.from({ length: 4 }, () => envelope());
    const first = await listen(listenArgs(store));
    for (const event of events) expect((await deliver(first.url, event)).status).toBe(200);
    expect(await first.stop()).toBe(0);
    // Line 3 (the second delivery's) overwritten, as a disk error or a hand edit leaves it.
    const whole = readFileSync(store, 'utf8').split('\n');
    whole[2] = '{"p": garbage';
    writeFileSync(store, whole.join('\n'));
    const before = readFileSync(store);

    const refused = await runSvc(listenArgs(store), { configDir: folder('config') });
    expect(refused.code).toBe(2);
    expect(refused.stderr).toContain(`${store} is damaged at line 3`);
    expect(refused.stderr).toMatch(/--repair/);
    expect(readFileSync(store).equals(before)).toBe(true);
    expect(readdirSync(dir)).toEqual(['journal']);

    const repaired = await listen(listenArgs(store, '--repair'));
    const aside = readdirSync(dir).find((f) => f.startsWith('journal.damaged-'));
    expect(aside).toBeDefined();
    expect(repaired.stderr()).toContain(join(dir, aside!));
    const cut = before.indexOf('{"p": garbage');
    expect(readFileSync(join(dir, aside!)).equals(before.subarray(cut))).toBe(true);
    // What came before the damage is remembered; what was moved aside is taken as new (at least once).
    expect(JSON.parse((await deliver(repaired.url, events[0])).body)).toMatchObject({ duplicate: true });
    expect((await deliver(repaired.url, events[3])).status).toBe(200);
    expect(lines(repaired.stdout()).join('\n')).toContain(events[3]!.id);
    expect(await repaired.stop()).toBe(0);
    expect(readFileSync(store).subarray(0, cut).equals(before.subarray(0, cut))).toBe(true);
    report({
      suite: 'listener',
      attack: '--store: a journal damaged at line 3, then --repair',
      tried: 2,
      survived: 2,
      lost: 0,
      detail: 'refused naming the line; tail moved aside byte for byte',
    });
  });
});

/** User + system CPU (ms) of a process, every thread, from /proc; its peak RSS (MiB). */
function cpuMs(pid: number): number {
  const stat = readFileSync(`/proc/${pid}/stat`, 'utf8');
  const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
  return (Number(fields[11]) + Number(fields[12])) * 10;
}
const peakRssMiB = (pid: number) =>
  Number(/VmHWM:\s+(\d+) kB/.exec(readFileSync(`/proc/${pid}/status`, 'utf8'))![1]) / 1024;

describe('a dead app behind a growing journal', () => {
  it('keeps the cost of a delivery flat past the compaction size, memory bounded, attempts to the app backed off', async () => {
    // 20 KiB bodies: past the 32 MiB at which the journal is first compacted, every body kept (queued).
    const count = LARGE ? 4000 : 1800;
    const app = await localApp(Array.from({ length: count * 2 }, () => 500));
    const l = await listen(['--json', ...listenArgs(join(folder('growth'), 'journal'), '--forward-to', app.url)]);
    const started = Date.now();
    try {
      const filler = 'x'.repeat(20 * 1024);
      const bodies = Array.from({ length: count }, () => {
        const body = JSON.stringify(envelope({ data: { id: 'Card:chaos', state: 'ACTIVE', note: filler } }));
        return { body, signature: signWebhookBody(body, keys.privateKeyPem) };
      });
      const quarterCpu: number[] = [];
      let queued = 0;
      for (let q = 0; q < 4; q++) {
        const cpu0 = cpuMs(l.pid);
        const part = bodies.slice((q * count) / 4, ((q + 1) * count) / 4);
        let next = 0;
        await Promise.all(
          Array.from({ length: 8 }, async () => {
            for (let i = next++; i < part.length; i = next++) {
              const { body, signature } = part[i]!;
              const answer = await post(l.url, body, { 'x-service-signature': signature });
              if (answer.status === 200 && answer.body.includes('"queued":true')) queued++;
            }
          }),
        );
        quarterCpu.push(cpuMs(l.pid) - cpu0);
      }
      const seconds = (Date.now() - started) / 1000;
      const growth = quarterCpu[3]! / Math.max(quarterCpu[0]!, 10);
      const rss = peakRssMiB(l.pid);
      const attemptsPerSecond = app.seen.length / seconds;
      report({
        suite: 'listener',
        attack: `${count} deliveries of 20 KiB, --store, the app answering 500`,
        tried: count,
        survived: queued,
        lost: count - queued,
        detail: `CPU last/first quarter ${growth.toFixed(2)}×, peak RSS ${rss.toFixed(0)} MiB, ${attemptsPerSecond.toFixed(2)} attempts/s to the app over ${seconds.toFixed(1)} s`,
      });
      expect(queued).toBe(count);
      expect(growth).toBeLessThanOrEqual(2);
      expect(rss).toBeLessThanOrEqual(200);
      // Backoff from 1 s, each wait at least half its step: never more than about 2 attempts a second.
      expect(app.seen.length).toBeGreaterThanOrEqual(1);
      expect(attemptsPerSecond).toBeLessThanOrEqual(2);
    } finally {
      await l.stop();
      await app.close();
    }
  }, 240_000);
});

describe('a hanging app', () => {
  let server: Server | undefined;
  afterAll(() => {
    server?.closeAllConnections();
    server?.close();
  });

  it('times out each forward on its own clock (moved by the test), forwarding every other delivery meanwhile', async () => {
    const k = LARGE ? 32 : 8;
    let open = 0;
    let allArrived!: () => void;
    const arrived = new Promise<void>((resolve) => (allArrived = resolve));
    server = createServer(() => {
      if (++open === k) allArrived(); // takes the request, never answers
    });
    await new Promise<void>((resolve) => server!.listen(0, '127.0.0.1', resolve));
    const limits: Array<{ ms: number; fire: () => void }> = [];
    const events: ListenerEvent[] = [];
    const listener = await startListener({
      key: parseWebhookPublicKey(keys.publicKeyPem),
      port: 0,
      forwardTo: `127.0.0.1:${(server.address() as AddressInfo).port}/hook`,
      forwardTimeoutMs: 5000,
      forwardTimer: (ms, fire) => {
        limits.push({ ms, fire });
        return () => {};
      },
      report: (e) => void events.push(e),
    });
    try {
      const answers = Array.from({ length: k }, () => deliver(listener.url, envelope()));
      await arrived; // every delivery is at the app while none has been answered
      expect(limits.map((l) => l.ms)).toEqual(Array.from({ length: k }, () => 5000));
      for (const limit of limits) limit.fire(); // 5 s on each forward's clock
      const statuses = (await Promise.all(answers)).map((a) => a.status);
      expect(statuses).toEqual(Array.from({ length: k }, () => 504));
      report({
        suite: 'listener',
        attack: `${k} deliveries to a hanging app (--forward-timeout on a test clock)`,
        tried: k,
        survived: statuses.filter((s) => s === 504).length,
        lost: statuses.filter((s) => s !== 504).length,
        detail: 'all forwarded at once; each answered 504 when its own limit fired',
      });
    } finally {
      await listener.close();
    }
  });
});
