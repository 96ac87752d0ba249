/**
 * The world the examples run in: one detached emulator on a temporary config folder (`local`
 * current, as after `svc emulator start`), a logged-in session, a loopback "app" that receives
 * forwards and deliveries, and the values the placeholders stand for, made on first use.
 */
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { mkdirSync } from 'node:fs';
import { join } from 'node:path';
import { REPO_ROOT, runSvc, svcEnv, type SvcResult } from '../../helpers/spawn-svc.js';
import type { EmulatorReady } from '../../helpers/spawned-emulator.js';
import { binFolder, type Shell } from './shell.js';
import { createStamp } from '../../../src/crypto/stamp.js';
import { tempDir } from '../../helpers/temp-dir.js';

/** A loopback app: answers deliveries and forwards, and keeps what it got. */
export interface App {
  /** host:port, for `--forward-to` and `--to`. */
  address: string;
  received: { headers: Record<string, string | string[] | undefined>; body: string }[];
  /** How it answers a request body (default 200). */
  answer: (body: string) => number;
  close(): Promise<void>;
}

async function startApp(): Promise<App> {
  const app: App = { address: '', received: [], answer: () => 200, close: async () => {} };
  const server: Server = createServer((req, res) => {
    let body = '';
    req.setEncoding('utf8').on('data', (d: string) => (body += d));
    req.on('end', () => {
      app.received.push({ headers: req.headers, body });
      res.writeHead(app.answer(body)).end();
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  app.address = `127.0.0.1:${(server.address() as AddressInfo).port}`;
  app.close = () =>
    new Promise((resolve) => {
      server.close(() => resolve());
      server.closeAllConnections();
    });
  return app;
}

/**
 * Stands in for an identity provider's tool (the README's `get-id-token --nonce "$NONCE"`): prints
 * a sandbox-shaped ID token carrying that nonce, for the identity `--sandbox-token` uses.
 */
const GET_ID_TOKEN = `#!/usr/bin/env node
const { mintSandboxToken, SANDBOX_IDENTITY } = await import(${JSON.stringify(join(REPO_ROOT, 'dist/src/auth/oidc-token.js'))});
const nonce = process.argv[process.argv.indexOf('--nonce') + 1];
console.log(mintSandboxToken(SANDBOX_IDENTITY, { nowMs: Date.now(), nonce }));
`;

export class World {
  readonly root = tempDir('svc-examples-');
  readonly configDir = join(this.root, 'config');
  readonly cwd = join(this.root, 'work');
  readonly home = join(this.root, 'home');
  /** `svc` and the stand-ins for other tools, first on the lines' PATH. */
  readonly bin = join(this.root, 'bin');
  ready!: EmulatorReady;
  app!: App;
  /** Values by name, for placeholders and for the variables the lines use ($OTP, $SIG…). */
  readonly values: Record<string, string> = {};
  private made = new Map<string, Promise<string>>();

  async start(): Promise<void> {
    for (const dir of [this.configDir, this.cwd, this.home]) mkdirSync(dir, { recursive: true });
    binFolder(this.bin, { 'get-id-token': GET_ID_TOKEN });
    this.app = await startApp();
    const r = await this.svc(['--json', 'emulator', 'start', '--detach', '--port', '0']);
    if (r.code !== 0) throw new Error(`emulator start --detach: ${r.stderr}`);
    this.ready = JSON.parse(r.stdout) as EmulatorReady;
    await this.login();
    // Money for the examples that pay out.
    await this.json(['sandbox', 'fund', this.ready.fixtures.accountId!, '--amount', '10000000']);
  }

  async stop(): Promise<void> {
    await this.svc(['emulator', 'stop']);
    await this.app?.close();
  }

  /**
   * The shell the lines run in: `svc` and the test's stand-ins first on PATH, HOME of its own, CI
   * set. With `own`, a config folder (and work folder) of its own instead of the world's.
   */
  shell(own?: string): Shell {
    const env = { PATH: `${this.bin}:${process.env.PATH}`, HOME: this.home, ...this.values };
    if (own) mkdirSync(join(own, 'work'), { recursive: true });
    return own
      ? { cwd: join(own, 'work'), env: svcEnv(join(own, 'config'), env) }
      : { cwd: this.cwd, env: svcEnv(this.configDir, env) };
  }

  /** svc on the world's config folder (for setting things up, not an example). */
  svc(args: string[], stdin?: string): Promise<SvcResult> {
    return runSvc(args, { configDir: this.configDir, ...(stdin !== undefined ? { stdin } : {}), timeoutMs: 60_000 });
  }

  /** `svc --json …`, parsed; throws with stderr when it fails. */
  async json(args: string[]): Promise<Record<string, unknown> & { id: string }> {
    const r = await this.svc(['--json', ...args]);
    if (r.code !== 0) throw new Error(`setup: svc ${args.join(' ')} exited ${r.code}: ${r.stderr}`);
    return JSON.parse(r.stdout);
  }

  /** A new session of the fixture credential, made active; its id. */
  async login(): Promise<string> {
    return (await this.json(['otp', 'verify', '--credential', this.ready.fixtures.credentialId!, '--code', '000000']))
      .id;
  }

  /** A live session that is not the active one (the one after it is), for an example that ends it. */
  async spareSession(): Promise<string> {
    const spare = await this.login();
    await this.login();
    return spare;
  }

  /** Waits (polling) until check() holds. */
  async eventually(check: () => boolean, what: string, timeoutMs = 30_000): Promise<void> {
    const deadline = Date.now() + timeoutMs;
    while (!check()) {
      if (Date.now() > deadline) throw new Error(`setup: timed out waiting for ${what}`);
      await new Promise((r) => setTimeout(r, 50));
    }
  }

  /** Makes the app the platform's webhook endpoint (as `svc platform-config update` does). */
  async deliverToApp(): Promise<void> {
    await this.json(['platform-config', 'update', '--webhook-endpoint', `http://${this.app.address}/webhooks`]);
  }

  /** A signed delivery the app received (raising an event if it has none yet). */
  async delivery(): Promise<App['received'][number]> {
    const signed = () => this.app.received.find((d) => d.headers['x-service-signature'] !== undefined);
    if (!signed()) {
      await this.deliverToApp();
      await this.raiseEvent();
    }
    await this.eventually(() => signed() !== undefined, 'a signed delivery to the app');
    return signed()!;
  }

  /** An incoming payment of `cents` USD to the fixture's UMA address: it raises its webhook events at once. */
  private receivePayment(cents: number): Promise<{ id: string }> {
    return this.json([
      'sandbox',
      'receive',
      '--uma-address',
      this.ready.fixtures.umaAddress!,
      '--sender-uma',
      '$success.usd@sandbox.example.com',
      '--amount',
      String(cents),
      '--currency',
      'USD',
    ]);
  }

  /** Raises a webhook event at once: an incoming payment. */
  async raiseEvent(): Promise<void> {
    await this.receivePayment(100);
  }

  /** Ids of the emulator's logged webhook events (its own route, outside the service's API). */
  async eventIds(): Promise<string[]> {
    const basic = Buffer.from(`${this.ready.apiTokenId}:${this.ready.apiClientSecret}`).toString('base64');
    const answer = await fetch(`${new URL(this.ready.baseUrl).origin}/_emulator/webhooks/events`, {
      headers: { authorization: `Basic ${basic}` },
    });
    return ((await answer.json()) as { data: { id: string }[] }).data.map((e) => e.id);
  }

  /** An incoming payment waiting for the platform's approve or reject: the app answers its webhook 202. */
  async pendingPayment(): Promise<string> {
    this.app.answer = (body) => (body.includes('"INCOMING_PAYMENT.PENDING"') ? 202 : 200);
    await this.deliverToApp();
    return (await this.receivePayment(1000)).id;
  }

  /**
   * The first leg of the service's own OTP verify, done by hand as the official CLI leaves it: a
   * fresh challenge's bundle, the code sealed to it, the 202 that asks for a signature by the key
   * sealed with the code, and that signature.
   */
  async otpVerifyLeg(): Promise<{ bundle: string; stamp: string; requestId: string }> {
    const credential = this.ready.fixtures.credentialId!;
    const challenge = await this.json(['auth', 'credentials', 'challenge', credential]);
    const sealed = await this.json([
      'keys',
      'encrypt-otp',
      '--bundle',
      String(challenge.otpEncryptionTargetBundle),
      '--code',
      '000000',
      '--signer',
      this.ready.otpSignerPublicKey,
    ]);
    const bundle =
      typeof sealed.encryptedOtpBundle === 'string'
        ? sealed.encryptedOtpBundle
        : JSON.stringify(sealed.encryptedOtpBundle);
    const asked = await this.json([
      'api',
      'POST',
      `/auth/credentials/${credential}/verify`,
      '--no-sign',
      '-f',
      'type=EMAIL_OTP',
      '-f',
      `encryptedOtpBundle=${bundle}`,
    ]);
    const stamp = createStamp(String(asked.payloadToSign), String(sealed.tekPrivateKey));
    return { bundle, stamp, requestId: String(asked.requestId) };
  }

  /** Made once, on first use, and shared. */
  once(name: string, make: () => Promise<string>): Promise<string> {
    if (!this.made.has(name)) this.made.set(name, make());
    return this.made.get(name)!;
  }
}
