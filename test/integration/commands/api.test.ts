/**
 * `svc api` run() against a real emulator behind a recording proxy: signed round trips (the 202
 * answered with the session key, PROCESSING followed), --no-sign, --show-payload asking on a
 * terminal, fields and --input, --include, --idempotency-key, and bad input refused before anything
 * is sent. Pagination runs against a 127.0.0.1 server that pages for real.
 */
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { run, type ApiOptions } from '../../../commands/api/run.js';
import { api as apiSpec } from '../../../commands/api/verbs.js';
import { optionsWith } from '../../helpers/verb-options.js';
import { inputSyntax } from '../../../commands/input-syntax.js';
import { ApiError, AuthRequiredError, CancelledError, UsageError } from '../../../src/errors.js';
import { generateKeyPair } from '../../../src/crypto/keys.js';
import { rejected } from '../../helpers/caught.js';
import { fakeDeps } from '../../helpers/fake-deps.js';
import { authEnv, type AuthEnv } from '../auth/support.js';
import { login } from '../auth/login.js';
import { countingEnv, countingServer } from './helpers.js';
import { tempDir } from '../../helpers/temp-dir.js';

let t: AuthEnv;
beforeAll(async () => (t = await authEnv({ processingRetries: 1 })));
afterAll(() => t.close());

const opts = (method: string, path: string, o: Partial<ApiOptions> = {}): ApiOptions =>
  optionsWith(apiSpec, { method, path, ...o });

async function sessionIds(accountId: string): Promise<string[]> {
  const d = t.deps({ globals: { json: true } });
  await run(opts('GET', '/auth/sessions', { query: [`accountId=${accountId}`] }), d);
  return (JSON.parse(d.stdout()) as { data: { id: string }[] }).data.map((s) => s.id);
}

describe('svc api: signed round trips', () => {
  it('DELETE /auth/sessions/{id}: the 202 is signed with the active key, PROCESSING followed, 204 printed as nothing', async () => {
    const signer = await login(t);
    const victim = t.emu.testing.createSession(generateKeyPair().publicKey) as { id: string };
    expect(await sessionIds(signer.accountId)).toContain(victim.id);
    const before = t.proxy.count(`/auth/sessions/${victim.id}`, true);

    const d = t.deps();
    await run(opts('DELETE', `/auth/sessions/${victim.id}`, { include: true }), d);
    expect(d.stdout()).toBe('');
    expect(d.stderr()).toContain('still processing (attempt 1)');
    expect(d.stderr()).toContain(`Signed the challenge with ${signer.id}`);
    expect(d.stderr()).toMatch(/^HTTP 204$/m);
    // Two signed sends: the first answered PROCESSING, the byte-identical re-send settled.
    expect(t.proxy.count(`/auth/sessions/${victim.id}`, true) - before).toBe(2);
    expect(await sessionIds(signer.accountId)).not.toContain(victim.id);
  });

  it('--session signs with that key; a session not held here is refused before sending', async () => {
    const first = await login(t);
    const second = await login(t);
    const victim = t.emu.testing.createSession(generateKeyPair().publicKey) as { id: string };
    const d = t.deps();
    await run(opts('DELETE', `/auth/sessions/${victim.id}`, { session: first.id }), d);
    expect(d.stderr()).toContain(`Signed the challenge with ${first.id}`);
    expect(second.id).not.toBe(first.id);

    const sent = t.proxy.seen.length;
    const error = await rejected(
      run(opts('DELETE', `/auth/sessions/${victim.id}`, { session: victim.id }), t.deps()),
      AuthRequiredError,
    );
    expect(error.message).toContain(`No key for ${victim.id} is held here`);
    expect(t.proxy.seen.length).toBe(sent);
  });

  it('--no-sign prints the 202 SignedRequestChallenge as it is and signs nothing', async () => {
    const signer = await login(t);
    const signedBefore = t.proxy.seen.filter((s) => s.signed).length;
    const d = t.deps({ globals: { json: true } });
    await run(opts('DELETE', `/auth/sessions/${signer.id}`, { sign: false }), d);
    const challenge = JSON.parse(d.stdout());
    expect(challenge).toMatchObject({ requestId: expect.stringMatching(/^Request:/), expiresAt: expect.any(String) });
    expect(JSON.parse(challenge.payloadToSign).parameters).toEqual({ sessionId: signer.id });
    expect(t.proxy.seen.filter((s) => s.signed).length).toBe(signedBefore);
    expect(await sessionIds(signer.accountId)).toContain(signer.id);
  });

  it('--show-payload prints the payload and asks on a terminal; "no" signs nothing', async () => {
    const signer = await login(t);
    const signedBefore = t.proxy.seen.filter((s) => s.signed).length;
    const d = t.deps({ tty: true, answers: [false] });
    const error = await rejected(
      run(opts('DELETE', `/auth/sessions/${signer.id}`, { showPayload: true }), d),
      CancelledError,
    );
    expect(error.message).toContain('nothing was signed');
    expect(d.asked).toEqual(['Sign this payload with the session key?']);
    expect(d.stderr()).toContain('"type":"ACTIVITY_TYPE_DELETE_SESSION"');
    expect(t.proxy.seen.filter((s) => s.signed).length).toBe(signedBefore);

    const yes = t.deps({ tty: true, answers: [true] });
    await run(opts('DELETE', `/auth/sessions/${signer.id}`, { showPayload: true }), yes);
    expect(await sessionIds(signer.accountId)).not.toContain(signer.id);
  });

  it('a challenge with no active session is an auth error (exit 4) naming how to log in', async () => {
    const d = fakeDeps({ env: { ...t.env, SERVICE_CLI_CONFIG_DIR: tempDir('svc-api-') } });
    const error = await rejected(
      run(opts('DELETE', `/auth/sessions/${t.emu.fixtures.accountId.replace('InternalAccount', 'Session')}`), d),
      Error,
    );
    // An unknown session is the service's 404 before any challenge; a known one needs a key.
    expect(error).toBeInstanceOf(ApiError);
    const signer = await login(t);
    const error2 = await rejected(run(opts('DELETE', `/auth/sessions/${signer.id}`), d), AuthRequiredError);
    expect(error2.hint).toContain('svc otp verify');
  });
});

describe('svc api: bodies, headers and output', () => {
  it('-f/-F build the JSON body; the created customer comes back on stdout', async () => {
    const d = t.deps();
    await run(
      opts('POST', '/customers', {
        rawField: [
          'customerType=INDIVIDUAL',
          'fullName=Trigger 001',
          'birthDate=1990-01-02',
          'address.line1=1 Rue',
          'address.city=Paris',
          'address.postalCode=75001',
        ],
        field: ['address.country=FR'],
      }),
      d,
    );
    const customer = JSON.parse(d.stdout());
    expect(customer).toMatchObject({ fullName: 'Trigger 001', kycStatus: 'PENDING' });
    expect(d.stdout()).toContain('\n  "id"'); // indented without --json
  });

  it('--input sends the file bytes; --input - reads stdin; 400 field errors come back as ApiError', async () => {
    const dir = tempDir('svc-api-');
    writeFileSync(join(dir, 'c.json'), '{"customerType":"INDIVIDUAL","fullName":"From File"}');
    const fromFile = t.deps({ globals: { json: true } });
    await run(opts('POST', '/customers', { input: join(dir, 'c.json') }), fromFile);
    expect(JSON.parse(fromFile.stdout()).fullName).toBe('From File');

    const error = await rejected(
      // A body the description allows (nationality is any string there) that the service refuses.
      run(
        opts('POST', '/customers', { input: '-' }),
        t.deps({ stdin: '{"customerType":"INDIVIDUAL","fullName":"Nobody","nationality":"Narnia"}' }),
      ),
      ApiError,
    );
    expect(error.status).toBe(400);
    expect(error.fieldErrors.map((e) => e.field)).toEqual(['nationality']);
  });

  it('GET fields become the query; --idempotency-key auto is sent and printed', async () => {
    const signer = await login(t);
    const d = t.deps({ globals: { json: true } });
    await run(
      opts('GET', '/auth/sessions', { rawField: [`accountId=${signer.accountId}`], idempotencyKey: 'auto' }),
      d,
    );
    expect(JSON.parse(d.stdout()).data.map((s: { id: string }) => s.id)).toContain(signer.id);
    expect(d.stderr()).toMatch(/^Idempotency-Key: [0-9a-f-]{36}$/m);
  });

  it('--include prints the status line of an error answer too; the error keeps the service code', async () => {
    const d = t.deps();
    const error = await rejected(
      run(opts('GET', '/customers/Customer:00000000-0000-4000-8000-000000000000', { include: true }), d),
      ApiError,
    );
    expect(error).toMatchObject({ status: 404, code: 'USER_NOT_FOUND' });
    expect(d.stderr()).toMatch(/^HTTP 404$/m);
  });

  it('bad input exits 2 before any request is sent', async () => {
    const server = await countingServer();
    try {
      const d = (o: object = {}) =>
        fakeDeps({
          env: { ...countingEnv(server), SERVICE_CLI_CONFIG_DIR: tempDir('svc-api-') },
          ...o,
        });
      const cases: [ApiOptions, string][] = [
        [opts('FETCH', '/x'), '<method>'],
        [opts('GET', 'https://elsewhere.example/x'), '<path>'],
        [opts('POST', '/x', { header: ['nocolon'] }), '--header'],
        [opts('POST', '/x', { rawField: ['a=1'], input: '-' }), '--input'],
        [opts('POST', '/x', { rawField: ['oops'] }), '-f'],
        [opts('POST', '/x', { sign: false, showPayload: true }), '--no-sign'],
        [opts('POST', '/x', { showPayload: true }), '--yes'],
        [opts('POST', '/x', { jsonLines: true }), '--json-lines'],
        [opts('POST', '/x', { paginate: true }), '--paginate'],
        [opts('DELETE', '/x', { session: 'nope' }), '--session'],
        [opts('GET', '/x', { paginate: true, include: true }), '--include'],
        [
          opts('GET', '/x', { paginate: true, include: true, showPayload: true, session: 'Session:x' }),
          '--include,--session,--show-payload',
        ],
      ];
      // What the user reads: the input each error names, as the flag or argument (commands/input-syntax.ts).
      const named = async (o: ApiOptions) => inputSyntax((await rejected(run(o, d()), UsageError)).input!, apiSpec);
      for (const [o, field] of cases) expect(await named(o), JSON.stringify(o)).toBe(field);
      // stdin that is a terminal is not waited on.
      expect((await rejected(run(opts('POST', '/x', { input: '-' }), d({ tty: true })), UsageError)).input).toBe(
        '--input',
      );
      expect(
        (await rejected(run(opts('POST', '/x', { field: ['note=@-'] }), d({ tty: true })), UsageError)).input,
      ).toBe('-F');
      expect(server.count()).toBe(0);
    } finally {
      await server.close();
    }
  });
});

describe('svc api --paginate', () => {
  let server: Server;
  let base: string;
  const cursors: (string | null)[] = [];
  beforeAll(async () => {
    // Three pages of two items, then the end; it records each cursor it was asked for.
    server = createServer((req, res) => {
      const url = new URL(req.url!, 'http://x');
      const cursor = url.searchParams.get('cursor');
      cursors.push(cursor);
      const page = cursor === null ? 0 : Number(cursor.slice(1));
      const data = [{ n: page * 2 + 1, limit: url.searchParams.get('limit') }, { n: page * 2 + 2 }];
      const body = page < 2 ? { data, hasMore: true, nextCursor: `p${page + 1}` } : { data, hasMore: false };
      res.writeHead(200, { 'content-type': 'application/json' }).end(JSON.stringify(body));
    });
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    base = `http://127.0.0.1:${(server.address() as AddressInfo).port}/2025-10-13`;
  });
  afterAll(() => new Promise<void>((resolve) => server.close(() => resolve())));
  const deps = (o: object = {}) =>
    fakeDeps({
      env: {
        SERVICE_BASE_URL: base,
        SERVICE_API_TOKEN_ID: 'id',
        SERVICE_API_CLIENT_SECRET: 'secret',
        SERVICE_CLI_CONFIG_DIR: tempDir('svc-api-'),
      },
      ...o,
    });

  it('follows nextCursor and prints one merged array, keeping the other query parameters', async () => {
    cursors.length = 0;
    const d = deps({ globals: { json: true } });
    await run(opts('GET', '/customers', { paginate: true, query: ['limit=2'] }), d);
    const all = JSON.parse(d.stdout()) as { n: number }[];
    expect(all.map((i) => i.n)).toEqual([1, 2, 3, 4, 5, 6]);
    expect(all[2]).toMatchObject({ limit: '2' });
    expect(cursors).toEqual([null, 'p1', 'p2']);
  });

  it('--json-lines prints one item per line', async () => {
    const d = deps();
    await run(opts('GET', '/customers', { paginate: true, jsonLines: true }), d);
    expect(
      d
        .stdout()
        .trim()
        .split('\n')
        .map((l) => JSON.parse(l).n),
    ).toEqual([1, 2, 3, 4, 5, 6]);
  });
});
