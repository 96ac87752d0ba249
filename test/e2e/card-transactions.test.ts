/**
 * Card transactions end to end: a spawned `svc webhook listen --events CARD_TRANSACTION.*` is the
 * emulator's webhook endpoint (every delivery sent twice) and forwards to a local app; a spawned
 * `svc trigger card-transaction.refunded --wait --events` authorizes, clears and returns on a new
 * card. The listener prints each card-transaction event once, on one readable line, verified; the
 * app gets the exact signed bytes, which verify with the emulator's published key via node:crypto.
 */
import { createPublicKey, verify } from 'node:crypto';
import { createServer, type IncomingHttpHeaders, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startEmulator, type RunningEmulator } from '../../src/emulator/index.js';
import { runSvc, tempConfigDir } from '../helpers/spawn-svc.js';
import { emulatorEnv } from '../integration/commands/helpers.js';
import { saveLocalProfile } from '../integration/webhook/helpers.js';
import { lines, spawnListener, type SpawnedListener } from '../integration/webhook/spawn-listener.js';

let emu: RunningEmulator;
let app: Server;
const received: { raw: Buffer; headers: IncomingHttpHeaders }[] = [];
let listener: SpawnedListener;
const configDir = tempConfigDir();

beforeAll(async () => {
  emu = await startEmulator({ port: 0, cardIssuanceDelayMs: 50, duplicateDeliveries: true });
  saveLocalProfile(configDir, emu);
  app = createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (c: Buffer) => chunks.push(c));
    req.on('end', () => {
      received.push({ raw: Buffer.concat(chunks), headers: req.headers });
      res.writeHead(200).end();
    });
  });
  await new Promise<void>((resolve) => app.listen(0, '127.0.0.1', resolve));
  const appUrl = `http://127.0.0.1:${(app.address() as AddressInfo).port}/hook`;
  listener = await spawnListener(
    [
      'webhook',
      'listen',
      '--port',
      '0',
      '--events',
      'CARD_TRANSACTION.*',
      '--forward-to',
      appUrl,
      '--store',
      join(configDir, 'seen.log'),
    ],
    configDir,
  );
}, 30_000);

afterAll(async () => {
  listener?.kill();
  app?.closeAllConnections();
  await new Promise((resolve) => app?.close(resolve));
  await emu?.close();
});

/** X-Service-Signature, bare base64 DER or the older {"v":"1","s":…} form, checked with node:crypto alone. */
function verifies(raw: Buffer, header: string | string[] | undefined): boolean {
  if (typeof header !== 'string') return false;
  const signature = header.startsWith('{') ? (JSON.parse(header) as { s: string }).s : header;
  const key = createPublicKey(emu.webhookPublicKey);
  return verify('sha256', raw, { key, dsaEncoding: 'der' }, Buffer.from(signature, 'base64'));
}

describe('svc trigger card-transaction.refunded with svc webhook listen', () => {
  it('shows AUTHORIZED, SETTLED and REFUNDED once each, on one line each; the forwarded bytes verify', async () => {
    const r = await runSvc(['--json', 'trigger', 'card-transaction.refunded', '--wait', '--events'], {
      env: emulatorEnv(emu),
      timeoutMs: 60_000,
    });
    expect(r.code, r.stderr).toBe(0);
    const report = JSON.parse(r.stdout);
    expect(report.observed).toMatchObject({ status: 'REFUNDED', refundedAmount: 1000 });
    const txId: string = report.resources.cardTransactionId;
    expect(txId).toMatch(/^CardTransaction:/);
    expect(report.events).toEqual(
      expect.arrayContaining(['CARD_TRANSACTION.AUTHORIZED', 'CARD_TRANSACTION.SETTLED', 'CARD_TRANSACTION.REFUNDED']),
    );

    await listener.waitForLines(3, 20_000);
    const deadline = Date.now() + 20_000;
    while (emu.testing.pendingWebhooks() > 0 && Date.now() < deadline) await new Promise((res) => setTimeout(res, 20));
    const all = lines(listener.stdout());
    // Event lines start with the time; every second copy is a "duplicate" note, each forward a "↪" line;
    // balance and card events are filtered out by --events.
    const shown = all.filter((line) => /^\d\d:\d\d:\d\dZ {2}/.test(line));
    expect(shown, all.join('\n')).toHaveLength(3);
    expect(all.filter((line) => line.startsWith('duplicate'))).toHaveLength(3);
    expect(shown[0]).toMatch(
      new RegExp(
        `CARD_TRANSACTION\\.AUTHORIZED  ${txId}  AUTHORIZED 10\\.00 USD at BLUE BOTTLE COFFEE SF  \\[Webhook:\\S+\\]  verified`,
      ),
    );
    expect(shown[1]).toMatch(/CARD_TRANSACTION\.SETTLED .* SETTLED 10\.00 USD at BLUE BOTTLE COFFEE SF .* verified/);
    expect(shown[2]).toMatch(
      /CARD_TRANSACTION\.REFUNDED .* REFUNDED 10\.00 USD back from BLUE BOTTLE COFFEE SF .* verified/,
    );

    const forwarded = received.map((d) => ({
      body: JSON.parse(d.raw.toString('utf8')),
      ok: verifies(d.raw, d.headers['x-service-signature']),
    }));
    expect(forwarded.map((f) => f.body.type)).toEqual([
      'CARD_TRANSACTION.AUTHORIZED',
      'CARD_TRANSACTION.SETTLED',
      'CARD_TRANSACTION.REFUNDED',
    ]);
    expect(forwarded.every((f) => f.ok && f.body.data.id === txId && f.body.data.type === 'CARD')).toBe(true);
    expect(
      verifies(Buffer.concat([received[0]!.raw, Buffer.from(' ')]), received[0]!.headers['x-service-signature']),
    ).toBe(false);
  });
});
