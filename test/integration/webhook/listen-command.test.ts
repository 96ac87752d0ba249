import { createPublicKey } from 'node:crypto';
import { writeFileSync } from 'node:fs';
import { createServer as createHttpServer } from 'node:http';
import { createServer, type AddressInfo } from 'node:net';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { run, type ListenOptions } from '../../../commands/webhook/listen.js';
import { UsageError } from '../../../src/errors.js';
import { openStore } from '../../../src/store/index.js';
import { closedPort } from '../../helpers/closed-port.js';
import { fakeDeps, type FakeDeps, type FakeDepsOptions } from '../../helpers/fake-deps.js';
import { deliver, envelope, keys, otherKeys, post } from './helpers.js';
import { tempDir } from '../../helpers/temp-dir.js';

const defaults: ListenOptions = {
  host: '127.0.0.1',
  port: 0,
  path: '/webhooks',
  skipVerify: false,
  route: [],
  repair: false,
  forwardTimeout: 5,
};

interface Listening {
  deps: FakeDeps;
  url: string;
  /** Ctrl-C, then wait for the command to finish. */
  stop(): Promise<void>;
}

const live: Listening[] = [];
afterEach(async () => {
  while (live.length) await live.pop()!.stop();
});

async function listen(opts: Partial<ListenOptions>, depsOptions: FakeDepsOptions = {}): Promise<Listening> {
  const controller = new AbortController();
  const deps = fakeDeps({
    ...depsOptions,
    env: { SERVICE_CLI_CONFIG_DIR: tempDir('svc-cfg-'), ...depsOptions.env },
    signal: controller.signal,
  });
  const finished = run({ ...defaults, ...opts }, deps);
  let failure: unknown;
  finished.catch((error) => (failure = error));
  const deadline = Date.now() + 10_000;
  let match: RegExpExecArray | null = null;
  while (!(match = /Listening for webhooks on (\S+)/.exec(deps.stderr()))) {
    if (failure) throw failure;
    if (Date.now() > deadline) throw new Error(`listener not ready; stderr:\n${deps.stderr()}`);
    await new Promise((r) => setTimeout(r, 10));
  }
  let stopped = false;
  const handle: Listening = {
    deps,
    url: match[1]!,
    async stop() {
      if (stopped) return;
      stopped = true;
      controller.abort(new Error('SIGINT'));
      await finished;
    },
  };
  live.push(handle);
  return handle;
}

const allStdoutLines = (deps: FakeDeps) =>
  deps
    .stdout()
    .split('\n')
    .filter((l) => l !== '');
/** The event lines: under --json the first line is the ready line (checked on its own below). */
const stdoutLines = (deps: FakeDeps) => allStdoutLines(deps).filter((l) => !l.startsWith('{"ready":true'));
const withKey = { publicKey: keys.publicKeyPem };

describe('svc webhook listen --json', () => {
  it('prints {"ready":true,"url","publicKey"} as the first stdout line, before any event', async () => {
    const l = await listen(withKey, { globals: { json: true } });
    await deliver(l.url, envelope());
    await l.stop();
    const [first, second] = allStdoutLines(l.deps);
    const expectedKey = createPublicKey(keys.publicKeyPem).export({ type: 'spki', format: 'pem' }).toString();
    expect(JSON.parse(first!)).toEqual({ ready: true, url: l.url, publicKey: expectedKey });
    expect(JSON.parse(second!)).toMatchObject({ verified: true });
  });

  it('in a script (--json, --no-input or CI) refuses to start when the --forward-to app refuses connections (exit 2, naming the flag); by hand it warns', async () => {
    const port = await closedPort();
    const forwardTo = `http://127.0.0.1:${port}/hook`;
    const scripted = [{ globals: { json: true } }, { globals: { input: false } }, { env: { CI: 'true' } }];
    for (const how of scripted) {
      const deps = fakeDeps({
        ...how,
        env: { SERVICE_CLI_CONFIG_DIR: tempDir('svc-cfg-'), ...how.env },
      });
      await expect(run({ ...defaults, ...withKey, forwardTo }, deps), JSON.stringify(how)).rejects.toMatchObject({
        input: 'forwardTo',
        reason: 'APP_UNREACHABLE',
        message: expect.stringMatching(/connection refused \(ECONNREFUSED\): nothing listens there/),
      });
    }
    const l = await listen({ ...withKey, forwardTo });
    expect(l.deps.stderr()).toMatch(
      /Warning: --forward-to: cannot reach http:\/\/127\.0\.0\.1:\d+\/hook: connection refused .* until your app is up/,
    );
  });

  it('prints exactly one JSON line per accepted event and nothing else on stdout', async () => {
    const l = await listen(withKey, { globals: { json: true } });
    const a = envelope();
    const b = envelope({
      type: 'CARD.FUNDING_SOURCE_CHANGE',
      data: { id: 'Card:x', state: 'ACTIVE', fundingSources: ['InternalAccount:1'] },
    });
    await deliver(l.url, a);
    await deliver(l.url, b);
    await deliver(l.url, a); // duplicate
    await deliver(l.url, envelope(), otherKeys.privateKeyPem); // rejected
    await l.stop();

    const lines = stdoutLines(l.deps);
    expect(lines).toEqual(
      [a, b].map((e) =>
        JSON.stringify({
          id: e.id,
          type: e.type,
          timestamp: e.timestamp,
          data: e.data,
          verified: true,
          outcome: 'verified',
        }),
      ),
    );
    const stderr = l.deps.stderr();
    expect(stderr).toMatch(/duplicate/);
    expect(stderr).toMatch(/Warning: rejected a request from 127\.0\.0\.1: 401/);
    expect(stderr).toMatch(/Stopped\. 2 received \(0 filtered\), 1 duplicates dropped, 1 rejected/);
  });

  it('--skip-verify announces itself at start and on every event, and marks events unverified', async () => {
    const l = await listen({ skipVerify: true }, { globals: { json: true } });
    expect(l.deps.stderr()).toMatch(/SIGNATURES ARE NOT VERIFIED/);
    await post(l.url, JSON.stringify(envelope()));
    await post(l.url, JSON.stringify(envelope()));
    await l.stop();
    expect(stdoutLines(l.deps).map((line) => JSON.parse(line).verified)).toEqual([false, false]);
    expect(l.deps.stderr().match(/UNVERIFIED event Webhook:/g)).toHaveLength(2);
  });

  it('--events prints only the listed types; the others are still acknowledged and recorded', async () => {
    const l = await listen({ ...withKey, events: 'CARD.FUNDING_SOURCE_CHANGE' }, { globals: { json: true } });
    const state = envelope();
    expect((await deliver(l.url, state)).status).toBe(200);
    expect(JSON.parse((await deliver(l.url, state)).body).duplicate).toBe(true);
    const funding = envelope({ type: 'CARD.FUNDING_SOURCE_CHANGE' });
    await deliver(l.url, funding);
    await l.stop();
    expect(stdoutLines(l.deps).map((line) => JSON.parse(line).id)).toEqual([funding.id]);
  });
});

describe('svc webhook listen on a terminal', () => {
  it('renders each event with its meaning, duplicates dim, and rejections only on stderr', async () => {
    const l = await listen(withKey);
    const card = 'Card:2f1e';
    await deliver(l.url, envelope({ data: { id: card, state: 'PROCESSING' } }));
    const active = envelope({ data: { id: card, state: 'ACTIVE' } });
    await deliver(l.url, active);
    await deliver(l.url, active);
    await deliver(l.url, envelope({ data: { id: card, state: 'CLOSED', stateReason: 'CLOSED_BY_PLATFORM' } }));
    await deliver(
      l.url,
      envelope({
        type: 'CARD.FUNDING_SOURCE_CHANGE',
        data: { id: card, state: 'ACTIVE', fundingSources: ['InternalAccount:a', 'InternalAccount:b'] },
      }),
    );
    await post(l.url, JSON.stringify(envelope()), { 'x-service-signature': 'nope' });
    await l.stop();

    const out = l.deps.stdout();
    expect(out).toContain(`CARD.STATE_CHANGE  ${card}  ACTIVE  [${active.id}]`);
    expect(out).toContain(`→ card is live: svc cards reveal ${card}`);
    expect(out).toContain(`duplicate  CARD.STATE_CHANGE  [${active.id}]`);
    expect(out).toContain('→ close confirmed; stop showing the card');
    expect(out).toContain('→ replace stored bindings with: InternalAccount:a, InternalAccount:b');
    expect(out).not.toMatch(/nope|rejected/);
    expect(l.deps.stderr()).toMatch(/rejected a request .*401 X-Service-Signature does not verify/);
    expect(l.deps.stderr()).toMatch(/Verifying X-Service-Signature with the key from --public-key/);
  });
});

describe('svc webhook listen: where the key comes from', () => {
  it('refuses to start without a key, naming --public-key (exit 2)', async () => {
    const deps = fakeDeps({ env: { SERVICE_CLI_CONFIG_DIR: tempDir('svc-cfg-') } });
    const error = await run(defaults, deps).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(UsageError);
    expect((error as UsageError).input).toBe('--public-key');
    expect((error as Error).message).toMatch(/--public-key/);
  });

  it('refuses --public-key together with --skip-verify, and a bad key', async () => {
    const deps = fakeDeps({ env: { SERVICE_CLI_CONFIG_DIR: tempDir('svc-cfg-') } });
    await expect(run({ ...defaults, ...withKey, skipVerify: true }, deps)).rejects.toThrow(
      /either --public-key or --skip-verify/,
    );
    await expect(run({ ...defaults, publicKey: 'not-a-key' }, deps)).rejects.toBeInstanceOf(UsageError);
  });

  it('takes the key as SEC1 hex from SERVICE_WEBHOOK_PUBKEY', async () => {
    const jwk = createPublicKey(keys.publicKeyPem).export({ format: 'jwk' });
    const hex =
      '04' + Buffer.from(jwk.x!, 'base64url').toString('hex') + Buffer.from(jwk.y!, 'base64url').toString('hex');
    const l = await listen({}, { env: { SERVICE_WEBHOOK_PUBKEY: hex } });
    expect((await deliver(l.url, envelope())).status).toBe(200);
    expect((await deliver(l.url, envelope(), otherKeys.privateKeyPem)).status).toBe(401);
    expect(l.deps.stderr()).toMatch(/key from SERVICE_WEBHOOK_PUBKEY/);
  });

  it('takes the key from @file, and from the profile', async () => {
    const file = join(tempDir('svc-key-'), 'webhook.pem');
    writeFileSync(file, keys.publicKeyPem);
    const fromFile = await listen({ publicKey: `@${file}` });
    expect((await deliver(fromFile.url, envelope())).status).toBe(200);

    const configDir = tempDir('svc-cfg-');
    openStore({ env: { SERVICE_CLI_CONFIG_DIR: configDir } }).setProfile('default', {
      webhookPublicKey: keys.publicKeyPem,
    });
    const fromProfile = await listen({}, { env: { SERVICE_CLI_CONFIG_DIR: configDir } });
    expect((await deliver(fromProfile.url, envelope())).status).toBe(200);
    expect(fromProfile.deps.stderr()).toMatch(/key from profile "default"/);
  });
});

describe('svc webhook listen: flags and lifecycle', () => {
  it('with --store, a restart still drops an id seen before', async () => {
    const store = join(tempDir('svc-store-'), 'seen.log');
    const event = envelope();
    const first = await listen({ ...withKey, store }, { globals: { json: true } });
    await deliver(first.url, event);
    await first.stop();
    const second = await listen({ ...withKey, store }, { globals: { json: true } });
    expect(second.deps.stderr()).toMatch(/\(1 loaded\)/);
    expect(JSON.parse((await deliver(second.url, event)).body)).toEqual({ received: true, duplicate: true });
    await second.stop();
    expect(stdoutLines(first.deps)).toHaveLength(1);
    expect(stdoutLines(second.deps)).toEqual([]);
  });

  it('refuses a --store file another listener is using (exit 2, naming --store)', async () => {
    const store = join(tempDir('svc-store-'), 'seen.log');
    const first = await listen({ ...withKey, store });
    const deps = fakeDeps({ env: { SERVICE_CLI_CONFIG_DIR: tempDir('svc-cfg-') } });
    await expect(run({ ...defaults, ...withKey, store }, deps)).rejects.toMatchObject({
      input: 'store',
      reason: 'STORE_IN_USE',
      message: expect.stringMatching(/in use by another listener/),
    });
    await first.stop();
    const again = await listen({ ...withKey, store }); // released on stop
    await again.stop();
  });

  it("--json with --forward-to: the app's status and latency go to stderr, stdout stays one JSON line per event", async () => {
    const app = createHttpServer((req, res) => {
      req.resume().on('end', () => res.writeHead(204).end());
    });
    await new Promise<void>((resolve) => app.listen(0, '127.0.0.1', resolve));
    const appUrl = `http://127.0.0.1:${(app.address() as AddressInfo).port}/hook`;
    try {
      const l = await listen({ ...withKey, forwardTo: appUrl }, { globals: { json: true } });
      const event = envelope();
      expect((await deliver(l.url, event)).status).toBe(200);
      await l.stop();
      expect(stdoutLines(l.deps).map((line) => JSON.parse(line).id)).toEqual([event.id]);
      expect(l.deps.stderr()).toMatch(new RegExp(`${event.id} ↪ forwarded to ${appUrl}: 204 in \\d`));
    } finally {
      app.closeAllConnections();
      app.close();
    }
  });

  it.each([
    ['on the command line', (routes: string[]) => routes],
    [
      'from an @file (comments and blank lines skipped)',
      (routes: string[]) => {
        const file = join(tempDir('svc-routes-'), 'routes.txt');
        writeFileSync(file, `# cards first\n${routes[0]}\n\n${routes[1]}  # payments\n`);
        return [`@${file}`];
      },
    ],
  ] as const)(
    '--route %s sends each event type to its app (first match wins), others to --forward-to; deduped once across routes',
    async (_form, given) => {
      const received = new Map<string, string[]>();
      const apps = await Promise.all(
        ['cards', 'payments', 'rest'].map(async (name) => {
          received.set(name, []);
          const app = createHttpServer((req, res) => {
            let body = '';
            req.setEncoding('utf8').on('data', (d: string) => (body += d));
            req.on('end', () => {
              received.get(name)!.push((JSON.parse(body) as { id: string }).id);
              res.writeHead(204).end();
            });
          });
          await new Promise<void>((resolve) => app.listen(0, '127.0.0.1', resolve));
          return { app, url: `http://127.0.0.1:${(app.address() as AddressInfo).port}/${name}` };
        }),
      );
      try {
        const [cards, payments, rest] = apps as [(typeof apps)[0], (typeof apps)[0], (typeof apps)[0]];
        const l = await listen(
          {
            ...withKey,
            route: given([`card.*=${cards.url}`, `OUTGOING_PAYMENT.COMPLETED,CARD.STATE_CHANGE=${payments.url}`]),
            forwardTo: rest.url,
          },
          { globals: { json: true } },
        );
        expect(l.deps.stderr()).toContain(`Forwarding CARD.STATE_CHANGE, CARD.FUNDING_SOURCE_CHANGE to ${cards.url}`);
        const card = envelope();
        const payment = envelope({ type: 'OUTGOING_PAYMENT.COMPLETED' });
        const test = envelope({ type: 'TEST' });
        for (const e of [card, payment, test, card]) expect((await deliver(l.url, e)).status).toBe(200);
        await l.stop();
        expect(Object.fromEntries(received)).toEqual({ cards: [card.id], payments: [payment.id], rest: [test.id] });
        expect(stdoutLines(l.deps).map((line) => JSON.parse(line).id)).toEqual([card.id, payment.id, test.id]);
        expect(l.deps.stderr()).toMatch(new RegExp(`${payment.id} ↪ forwarded to ${payments.url}: 204`));
      } finally {
        for (const { app } of apps) {
          app.closeAllConnections();
          app.close();
        }
      }
    },
  );

  it('refuses a bad --route before starting: not TYPES=URL, an unknown type, a URL that is not http(s)', async () => {
    const deps = fakeDeps({ env: { SERVICE_CLI_CONFIG_DIR: tempDir('svc-cfg-') } });
    const empty = join(tempDir('svc-routes-'), 'empty.txt');
    writeFileSync(empty, '# nothing yet\n');
    for (const route of [
      'CARD.*',
      'CARDS.*=http://127.0.0.1:1/x',
      'CARD.*=ftp://x',
      `@${empty}`,
      '@/nonexistent/routes.txt',
    ]) {
      await expect(run({ ...defaults, ...withKey, route: [route] }, deps)).rejects.toMatchObject({ input: 'route' });
    }
  });

  it('names the flag for a bad path and a port in use', async () => {
    const deps = fakeDeps({ env: { SERVICE_CLI_CONFIG_DIR: tempDir('svc-cfg-') } });
    await expect(run({ ...defaults, ...withKey, path: 'webhooks' }, deps)).rejects.toMatchObject({ input: '--path' });
    const blocker = createServer();
    await new Promise<void>((resolve) => blocker.listen(0, '127.0.0.1', resolve));
    const port = (blocker.address() as { port: number }).port;
    try {
      await expect(run({ ...defaults, ...withKey, port }, deps)).rejects.toMatchObject({
        input: 'port',
        reason: 'PORT_IN_USE',
        message: expect.stringMatching(/in use/),
      });
    } finally {
      blocker.close();
    }
  });
});
