/**
 * `svc trigger --wait` measures a delayed outcome on the service's clock: on an emulator running 600
 * times faster, the 6 minutes of quote.long pass in about a second of real time; on one at 1x, the
 * progress line says how to get there.
 */
import { afterEach, describe, expect, it } from 'vitest';
import { startEmulator, type RunningEmulator } from '../../src/emulator/index.js';
import { runSvc, startSvc } from '../helpers/spawn-svc.js';
import { emulatorEnv } from '../integration/commands/helpers.js';

let emu: RunningEmulator | undefined;
afterEach(async () => {
  await emu?.close();
  emu = undefined;
});

describe('svc trigger --wait on the service clock', () => {
  it('follows quote.long to COMPLETED on a --time-scale 600 emulator (killed after 90 s: at 1x it takes 6 min)', async () => {
    emu = await startEmulator({ port: 0, timeScale: 600 });
    const r = await runSvc(['--json', 'trigger', 'quote.long', '--wait'], { env: emulatorEnv(emu), timeoutMs: 90_000 });
    expect(r.signal, 'killed: --wait counted real time').toBeNull();
    expect(r.code, r.stderr).toBe(0);
    expect(JSON.parse(r.stdout)).toMatchObject({ observed: { status: 'COMPLETED', quoteStatus: 'COMPLETED' } });
  }, 120_000);

  it('on an emulator at 1x, the progress line suggests --time-scale; Ctrl-C stops the wait with 130, naming what it made', async () => {
    emu = await startEmulator({ port: 0 });
    const run = startSvc(['trigger', 'quote.long', '--wait'], { env: emulatorEnv(emu) });
    while (!run.stderr().includes('Following')) {
      if (run.stderr().includes('Error')) throw new Error(run.stderr());
      await new Promise((r) => setTimeout(r, 50));
    }
    expect(run.stderr()).toContain("about 360 s on the service's clock; an emulator started with --time-scale 600");
    expect(await run.stop('SIGINT')).toBe(130);
    expect(run.stderr()).toContain('quote.long was stopped; what it had made or used so far:');
    expect(run.stderr()).toMatch(/customerId +Customer:\S+\n/);
    expect(run.stderr()).toMatch(/quoteId +Quote:\S+\n/);
    expect(run.stderr()).toContain('Interrupted.');
  });

  it('with --json, a long wait still says its steps and the --time-scale tip on stderr; stdout stays empty', async () => {
    emu = await startEmulator({ port: 0 });
    const run = startSvc(['--json', 'trigger', 'quote.long', '--wait'], { env: emulatorEnv(emu) });
    while (!run.stderr().includes('Following')) {
      if (run.stderr().includes('error')) throw new Error(run.stderr());
      await new Promise((r) => setTimeout(r, 50));
    }
    expect(run.stderr()).toContain('an emulator started with --time-scale 600 takes about a second');
    expect(run.stdout()).toBe('');
    expect(await run.stop('SIGINT')).toBe(130);
    // What it made so far, for a script to clean up: the report's resources, marked interrupted.
    expect(JSON.parse(run.stdout())).toMatchObject({
      scenario: 'quote.long',
      interrupted: true,
      resources: { customerId: expect.stringMatching(/^Customer:/), quoteId: expect.stringMatching(/^Quote:/) },
    });
  });
});
