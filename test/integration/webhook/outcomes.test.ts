import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { renderer } from '../../../commands/webhook/listen-output.js';
import { createUI } from '../../../commands/ui.js';
import { parseWebhookPublicKey } from '../../../src/crypto/webhook-signature.js';
import { startListener } from '../../../src/webhook/listener.js';
import { fakeDeps, type FakeDeps } from '../../helpers/fake-deps.js';
import { deliver, envelope, keys, otherKeys } from './helpers.js';
import { tempDir } from '../../helpers/temp-dir.js';

const running: Array<() => Promise<void>> = [];
afterEach(async () => {
  while (running.length) await running.pop()!();
});

/** A local app answering the given statuses in turn (204 after them). */
async function app(statuses: number[]): Promise<string> {
  const server: Server = createServer((req, res) => {
    req.resume().on('end', () => res.writeHead(statuses.shift() ?? 204).end());
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  running.push(
    () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  );
  return `http://127.0.0.1:${(server.address() as AddressInfo).port}/hook`;
}

/** The listener as `svc webhook listen --store --forward-to` starts and renders it, with a 50 ms first retry. */
async function listener(appUrl: string, json: boolean): Promise<{ url: string; deps: FakeDeps }> {
  const deps = fakeDeps({ globals: { json } });
  const out = renderer(createUI(deps), deps);
  const l = await startListener({
    port: 0,
    key: parseWebhookPublicKey(keys.publicKeyPem),
    forwardTo: appUrl,
    store: join(tempDir('svc-outcomes-'), 'seen.log'),
    forwardRetry: { initialMs: 50, random: () => 1 }, // no jitter: the wait said is the cap
    report: out.render,
  });
  out.ready();
  running.push(async () => {
    await l.close();
  });
  return { url: l.url, deps };
}

async function until(check: () => boolean, what: () => string): Promise<void> {
  const deadline = Date.now() + 5000;
  while (!check()) {
    if (Date.now() > deadline) throw new Error(what());
    await new Promise((r) => setTimeout(r, 20));
  }
}

describe('what happened to each delivery', () => {
  it('on a terminal: queued for retry, then forwarded on attempt 2 and verified; a duplicate and a refusal say so', async () => {
    const appUrl = await app([500]);
    const l = await listener(appUrl, false);
    const event = envelope({ data: { id: 'Card:1', state: 'FROZEN' } });
    expect(JSON.parse((await deliver(l.url, event)).body)).toEqual({ received: true, queued: true });
    expect(l.deps.stderr()).toMatch(
      new RegExp(
        `forwarding ${event.id} to ${appUrl} failed: 500 after .* \\(attempt 1\\); kept in the --store journal, next try in 50 ms`,
      ),
    );
    await until(
      () => l.deps.stdout().includes('↪'),
      () => l.deps.stdout() + l.deps.stderr(),
    );
    const lines = l.deps.stdout().split('\n');
    expect(lines[0]).toMatch(new RegExp(`CARD\\.STATE_CHANGE  Card:1  FROZEN  \\[${event.id}\\]  verified$`));
    expect(lines[2]).toMatch(new RegExp(`↪ forwarded to ${appUrl}: 204 in [\\d.]+ ms on local attempt 2$`));

    await deliver(l.url, event);
    expect(l.deps.stdout()).toContain(`duplicate  CARD.STATE_CHANGE  [${event.id}] already processed`);
    await deliver(l.url, envelope(), otherKeys.privateKeyPem);
    expect(l.deps.stderr()).toMatch(/rejected a request from 127\.0\.0\.1: 401 X-Service-Signature does not verify/);
  });

  it('under --json: outcome, the app answer (status, latency) and the attempt are fields of the event line', async () => {
    const appUrl = await app([503]);
    const l = await listener(appUrl, true);
    const first = envelope();
    const second = envelope();
    await deliver(l.url, first);
    await deliver(l.url, second);
    await until(
      () => l.deps.stdout().trim().split('\n').length >= 2,
      () => l.deps.stdout() + l.deps.stderr(),
    );
    const records = l.deps
      .stdout()
      .trim()
      .split('\n')
      .map((line) => JSON.parse(line) as Record<string, unknown>);
    const byId = new Map(records.map((r) => [r.id, r]));
    expect(byId.get(first.id)).toMatchObject({
      verified: true,
      outcome: 'forwarded',
      forward: { url: appUrl, status: 204, ms: expect.any(Number) },
      attempt: 2,
    });
    expect(byId.get(second.id)).toMatchObject({ verified: true, outcome: 'forwarded', forward: { status: 204 } });
    expect(byId.get(second.id)).not.toHaveProperty('attempt');
  });
});
