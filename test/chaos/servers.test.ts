/**
 * Both servers (the emulator and `svc webhook listen`) under abuse over raw loopback sockets:
 * pipelining, request smuggling shapes, oversize / nested / huge / non-UTF-8 bodies, path tricks,
 * wrong credentials, 1,000 connections at once, slow clients beside good ones. Never a 5xx, a hang
 * or a crash, and resident memory does not keep growing (after a warm-up round, measured again after
 * the run: one round in CI, 60 seconds of rounds under `npm run chaos`).
 */
import { afterAll, describe, expect, it } from 'vitest';
import {
  bodies,
  concurrent,
  credentials,
  framing,
  paths,
  pipelined,
  rssMiB,
  slowClients,
  stillServing,
  type Tally,
} from './attacks.js';
import { LARGE, printFigures, report } from './report.js';
import { startEmulator, startListener, type Running } from './targets.js';

afterAll(printFigures);

async function round(target: Running): Promise<Tally[]> {
  return [
    await pipelined(target, 20, LARGE ? 10 : 2),
    await framing(target, LARGE ? 10 : 2),
    await bodies(target, LARGE ? 3 : 1),
    await paths(target, LARGE ? 5 : 1),
    await credentials(target, LARGE ? 5 : 1),
    await concurrent(target, 1000),
    await slowClients(target, LARGE ? 100 : 20, LARGE ? 50 : 10, 2000),
  ];
}

async function abuse(target: Running): Promise<void> {
  try {
    const warmup = await round(target);
    const before = rssMiB(target.pid);
    const totals = new Map<string, Tally>(warmup.map((t) => [t.attack, { ...t, notes: [...t.notes] }]));
    const started = Date.now();
    const samples: number[] = [];
    do {
      samples.push(rssMiB(target.pid));
      for (const t of await round(target)) {
        const sum = totals.get(t.attack)!;
        sum.tried += t.tried;
        sum.survived += t.survived;
        sum.lost += t.lost;
        sum.notes.push(...t.notes);
      }
    } while (LARGE && Date.now() - started < 60_000);
    const after = rssMiB(target.pid);
    samples.push(after);
    const seconds = Math.round((Date.now() - started) / 1000);
    // RSS is a garbage-collection sawtooth: growth is judged on its low points, first half against
    // second half (a leak raises them; a bounded cache such as the dedupe set fills and stops).
    const half = Math.floor(samples.length / 2);
    const growth =
      samples.length > 3 ? Math.min(...samples.slice(half)) - Math.min(...samples.slice(0, half)) : after - before;
    const flat = growth < 64;
    for (const t of totals.values())
      if (t.tried > 0)
        report({
          suite: target.name,
          attack: t.attack,
          tried: t.tried,
          survived: t.survived,
          lost: t.lost,
          ...(t.notes.length && { detail: t.notes.slice(0, 2).join('; ') }),
        });
    report({
      suite: target.name,
      attack: `RSS over ${seconds} s after a warm-up round (low points, first half vs second)`,
      tried: 1,
      survived: flat ? 1 : 0,
      lost: flat ? 0 : 1,
      detail: `${before} → ${after} MiB; range ${Math.min(...samples)}–${Math.max(...samples)}; low-point growth ${Math.round(growth * 10) / 10} MiB`,
    });
    for (const t of totals.values())
      expect({ attack: t.attack, lost: t.lost, notes: t.notes.slice(0, 3) }).toEqual({
        attack: t.attack,
        lost: 0,
        notes: [],
      });
    expect(await stillServing(target)).toBe(true);
    expect(growth).toBeLessThan(64);
  } finally {
    const code = await target.stop();
    expect(code, `${target.name} exited ${code}\n${target.stderr().slice(-2000)}`).not.toBeNull();
  }
}

describe('servers under abuse (tried / survived / lost)', () => {
  it(
    'svc webhook listen: never a 5xx, a hang or a crash; memory flat',
    () => startListener().then(abuse),
    LARGE ? 300_000 : 120_000,
  );
  it(
    'svc emulator start: never a 5xx, a hang or a crash; memory flat',
    () => startEmulator().then(abuse),
    LARGE ? 300_000 : 120_000,
  );
});
