import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { fakeDeps, type FakeDepsOptions } from '../../helpers/fake-deps.js';
import { startEmulator, type RunningEmulator } from '../../../src/emulator/index.js';
import { UsageError } from '../../../src/errors.js';
import { run as reveal } from '../../../commands/cards/reveal.js';
import { openUrl, openerCommand, requireOpener } from '../../../commands/cards/open-url.js';
import { countingEnv, countingServer, emulatorEnv, recordingBrowser } from './helpers.js';
import { tempDir } from '../../helpers/temp-dir.js';

let emu: RunningEmulator;
beforeAll(async () => (emu = await startEmulator({ port: 0 })));
afterAll(() => emu.close());

const deps = (o: FakeDepsOptions = {}) => fakeDeps({ ...o, env: { ...emulatorEnv(emu), ...o.env } });
const EMBED_URL = /^http:\/\/127\.0\.0\.1:\d+\/embed\/cards\/[A-Za-z0-9_-]{20,}$/;

describe('cards reveal', () => {
  it('prints only the URL on stdout and a warning with the expiry on stderr', async () => {
    const d = deps({ globals: { verbose: true } });
    await reveal({ card: emu.fixtures.cardId, open: false }, d);
    const url = d.stdout().trimEnd();
    expect(url).toMatch(EMBED_URL);
    expect(d.stdout()).toBe(`${url}\n`);
    expect(d.stderr()).toMatch(/short-lived bearer secret[\s\S]*expires at \d{4}-\d{2}-\d{2}T/);
    expect(d.stderr()).toContain('POST /cards/'); // the --verbose log line is there…
    expect(d.stderr()).not.toContain(url); // …but the URL is not
    expect(d.stderr()).not.toContain(url.split('/').pop()!);
  });

  it('--json prints exactly {panEmbedUrl, expiresAt}', async () => {
    const d = deps({ globals: { json: true } });
    await reveal({ card: emu.fixtures.cardId, open: false }, d);
    const body = JSON.parse(d.stdout());
    expect(Object.keys(body).sort()).toEqual(['expiresAt', 'panEmbedUrl']);
    expect(body.panEmbedUrl).toMatch(EMBED_URL);
    expect(d.stderr()).not.toContain(body.panEmbedUrl);
  });

  it('--open runs the browser with the URL and prints no URL anywhere', async () => {
    const browser = recordingBrowser(tempDir('svc-browser-'));
    const d = deps({ env: { SVC_BROWSER: browser.command } });
    await reveal({ card: emu.fixtures.cardId, open: true }, d);
    const url = await browser.opened();
    expect(url).toMatch(EMBED_URL);
    expect(d.stdout()).toBe('');
    expect(d.stderr()).toContain('Opened the card details');
    expect(d.stdout() + d.stderr()).not.toContain(url);
  });

  it('--open with no browser to run fails with exit 2 before the one-use link is requested', async () => {
    const server = await countingServer();
    try {
      const d = fakeDeps({ env: { ...countingEnv(server), SVC_BROWSER: '/nonexistent/browser' } });
      const error = await reveal({ card: emu.fixtures.cardId, open: true }, d).catch((e: Error) => e);
      expect(error).toBeInstanceOf(UsageError);
      expect(error).toMatchObject({ input: '--open', hint: expect.stringMatching(/SVC_BROWSER/) });
      expect(server.count()).toBe(0);
      expect(d.stdout()).toBe('');
    } finally {
      await server.close();
    }
  });

  it('--open finds a browser named without a path on PATH', async () => {
    const dir = tempDir('svc-browser-');
    const browser = recordingBrowser(dir);
    const d = deps({ env: { PATH: `${dir}:${process.env.PATH}`, SVC_BROWSER: 'fake-browser.sh' } });
    await reveal({ card: emu.fixtures.cardId, open: true }, d);
    expect(await browser.opened()).toMatch(EMBED_URL);
    expect(() => requireOpener({ PATH: dir, SVC_BROWSER: 'no-such-browser' }, 'linux')).toThrow(UsageError);
    expect(() => requireOpener({ PATH: '' }, 'linux')).toThrow(/"xdg-open" is not an executable on PATH/);
  });

  it('a browser that fails to start still fails without the URL in the message', async () => {
    const error = await openUrl(
      'https://example.test/secret-token',
      {},
      { command: '/nonexistent/browser', args: [] },
    ).catch((e: Error) => e);
    expect((error as Error).message).toContain('ENOENT');
    expect((error as Error).message).not.toContain('secret-token');
  });

  it('a 401 on the API token hints at the credentials, not at a login', async () => {
    const d = deps({ env: { SERVICE_API_CLIENT_SECRET: 'not-the-secret' } });
    const error = await reveal({ card: emu.fixtures.cardId, open: false }, d).catch((e: Error) => e);
    expect(error).toMatchObject({ status: 401, hint: expect.stringMatching(/Check the API credentials/) });
    expect(d.stdout()).toBe('');
  });

  it('a card that is not issued yet is the service 404 (no details yet), and nothing reaches stdout', async () => {
    const issued = await fetch(`${emu.baseUrl}/cards`, {
      method: 'POST',
      headers: {
        authorization: `Basic ${Buffer.from(`${emu.apiTokenId}:${emu.apiClientSecret}`).toString('base64')}`,
        'content-type': 'application/json',
      },
      body: JSON.stringify({
        cardholderId: emu.fixtures.customerId,
        form: 'VIRTUAL',
        fundingSources: [emu.fixtures.accountId],
      }),
    }).then((r) => r.json() as Promise<{ id: string; state: string }>);
    expect(issued.state).toBe('PROCESSING');
    const d = deps();
    await expect(reveal({ card: issued.id, open: false }, d)).rejects.toMatchObject({ status: 404 });
    expect(d.stdout()).toBe('');
  });

  it.each(['Card:1234', 'InternalAccount:3f0c2b1e-8f7a-4c1d-9b2e-5a6d7c8e9f01', undefined])(
    'refuses card %j before any request',
    async (card) => {
      const server = await countingServer();
      try {
        await expect(
          reveal({ card: card as string, open: false }, fakeDeps({ env: countingEnv(server) })),
        ).rejects.toMatchObject({ input: 'card' });
        expect(server.count()).toBe(0);
      } finally {
        await server.close();
      }
    },
  );
});

describe('the opener', () => {
  it('prefers SVC_BROWSER, then BROWSER, then the platform default', () => {
    expect(openerCommand({ SVC_BROWSER: 'a', BROWSER: 'b' }).command).toBe('a');
    expect(openerCommand({ BROWSER: 'b' }).command).toBe('b');
    expect(openerCommand({}, 'linux').command).toBe('xdg-open');
    expect(openerCommand({}, 'darwin').command).toBe('open');
    expect(openerCommand({}, 'win32')).toEqual({ command: 'rundll32', args: ['url.dll,FileProtocolHandler'] });
  });

  it.each(['file:///etc/passwd', '--help', 'javascript:alert(1)'])('refuses to open %j', async (url) => {
    const browser = recordingBrowser(tempDir('svc-browser-'));
    await expect(openUrl(url, { SVC_BROWSER: browser.command })).rejects.toBeInstanceOf(UsageError);
    await expect(browser.opened(200)).rejects.toThrow('never opened');
  });
});
