/**
 * The session table fits a narrow terminal without shortening the ids a user
 * copies; `--forward-to host:port/path` is taken as http (spawned listener, a real app server).
 */
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { tempConfigDir } from '../helpers/spawn-svc.js';
import { authEnv, type AuthEnv } from '../integration/auth/support.js';
import { spawnedLogin } from '../integration/auth/login.js';
import { svcOnPty } from '../integration/auth/pty.js';
import { spawnListener } from '../integration/webhook/spawn-listener.js';
import { deliver, envelope, keys } from '../integration/webhook/helpers.js';

let t: AuthEnv;
beforeAll(async () => {
  t = await authEnv();
});
afterAll(() => t.close());

it('session list fits a 72-column terminal and keeps every session id whole', async () => {
  for (let i = 0; i < 2; i++) {
    expect((await spawnedLogin(t)).code).toBe(0);
  }
  const ids = t
    .store()
    .listSessions()
    .map((s) => s.id);
  const pty = svcOnPty(['session', 'list'], t.env, { cols: 72 });
  try {
    expect(await pty.exited).toBe(0);
  } finally {
    pty.kill();
  }
  const screen = pty.screen().replace(/\r/g, '');
  for (const id of ids) expect(screen).toContain(id);
  for (const line of screen.split('\n')) expect(line.length, line).toBeLessThanOrEqual(72);
});

it('--forward-to 127.0.0.1:<port>/hook and localhost:<port> are taken as http URLs', async () => {
  const received: string[] = [];
  const app = createServer((req, res) => {
    received.push(req.url!);
    req.resume().on('end', () => res.writeHead(204).end());
  });
  await new Promise<void>((resolve) => app.listen(0, '127.0.0.1', resolve));
  const port = (app.address() as AddressInfo).port;
  const common = ['webhook', 'listen', '--port', '0', '--public-key', keys.publicKeyPem];
  const listener = await spawnListener([...common, '--forward-to', `127.0.0.1:${port}/hook`], tempConfigDir());
  try {
    expect(listener.stderr()).toContain(`Forwarding verified deliveries to http://127.0.0.1:${port}/hook`);
    expect((await deliver(listener.url, envelope())).status).toBe(200);
    expect(received).toEqual(['/hook']);
  } finally {
    await listener.stop();
  }
  // The listener checks at start that the forward target accepts connections, so the app stays up.
  const local = await spawnListener([...common, '--forward-to', `localhost:${port}`], tempConfigDir());
  try {
    expect(local.stderr()).toContain(`Forwarding verified deliveries to http://localhost:${port}/`);
  } finally {
    await local.stop();
    app.closeAllConnections();
    app.close();
  }
});
