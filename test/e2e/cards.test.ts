import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { runSvc } from '../helpers/spawn-svc.js';
import { startEmulator, type RunningEmulator } from '../../src/emulator/index.js';
import { countingEnv, countingServer, emulatorEnv, recordingBrowser } from '../integration/commands/helpers.js';
import { tempDir } from '../helpers/temp-dir.js';

let emu: RunningEmulator;
beforeAll(async () => (emu = await startEmulator({ port: 0 })));
afterAll(() => emu.close());

const URL_LINE = /^http:\/\/127\.0\.0\.1:\d+\/embed\/cards\/[A-Za-z0-9_-]{20,}\n$/;

describe('svc cards reveal (spawned)', () => {
  it('prints the URL on stdout only; stderr has the warning and the --verbose log, not the URL', async () => {
    const r = await runSvc(['--verbose', 'cards', 'reveal', emu.fixtures.cardId], { env: emulatorEnv(emu) });
    expect(r.code).toBe(0);
    expect(r.stdout).toMatch(URL_LINE);
    const url = r.stdout.trim();
    expect(r.stderr).toMatch(/short-lived bearer secret.*expires at \d{4}-/);
    expect(r.stderr).toMatch(/POST \/cards\/Card:\S+\/reveal 200/);
    expect(r.stderr).not.toContain(url.slice(url.lastIndexOf('/') + 1));
  });

  it('--json prints {panEmbedUrl, expiresAt}', async () => {
    const r = await runSvc(['--json', 'cards', 'reveal', emu.fixtures.cardId], { env: emulatorEnv(emu) });
    expect(r.code).toBe(0);
    const body = JSON.parse(r.stdout);
    expect(Object.keys(body).sort()).toEqual(['expiresAt', 'panEmbedUrl']);
    expect(r.stderr).not.toContain(body.panEmbedUrl);
  });

  it('--open hands the URL to SVC_BROWSER and prints none', async () => {
    const browser = recordingBrowser(tempDir('svc-browser-'));
    const r = await runSvc(['cards', 'reveal', emu.fixtures.cardId, '--open'], {
      env: { ...emulatorEnv(emu), SVC_BROWSER: browser.command },
    });
    expect(r.code).toBe(0);
    const url = await browser.opened();
    expect(`${url}\n`).toMatch(URL_LINE);
    expect(r.stdout).toBe('');
    expect(r.stdout + r.stderr).not.toContain(url);
  });

  it('a bad card id exits 2 before any request', async () => {
    const server = await countingServer();
    try {
      const r = await runSvc(['cards', 'reveal', 'Card:xyz'], { env: countingEnv(server) });
      expect(r.code).toBe(2);
      expect(r.stderr).toMatch(/^Error: <card>: Expected a Card identifier like Card:<uuid>; got "Card:xyz"\./);
      expect(server.count()).toBe(0);
    } finally {
      await server.close();
    }
  });
});
