/**
 * `svc session …` as real processes against a real emulator: refresh (PROCESSING, legacy,
 * expired, 401), list/use/show/revoke, and, across everything, that no private key or client
 * secret is ever printed.
 */
import { rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { sessionFileName } from '../../src/store/names.js';
import { runSvc, type SvcResult } from '../helpers/spawn-svc.js';
import { generateKeyPair, isCompressedPublicKey } from '../../src/crypto/keys.js';
import { authEnv, leakedSecrets, sessionFileModes, type AuthEnv } from '../integration/auth/support.js';
import { activeSession } from '../integration/auth/login.js';

let t: AuthEnv;
const outputs: SvcResult[] = [];
const secretsSeen = new Set<string>();

beforeAll(async () => {
  t = await authEnv({ processingRetries: 1 });
});
afterAll(() => t.close());

async function svc(args: string[]): Promise<SvcResult> {
  const r = await runSvc(args, { env: t.env, configDir: t.configDir });
  outputs.push(r);
  for (const s of t.store().listSessions()) secretsSeen.add(s.privateKey);
  return r;
}

async function login(): Promise<string> {
  const r = await svc(['otp', 'verify', '--credential', t.emu.fixtures.credentialId, '--code', '000000']);
  expect(r.code).toBe(0);
  return activeSession(t)!.id;
}

describe('svc session (spawned)', () => {
  it('refresh follows PROCESSING to 201 and stores the new compressed key 0600 as active', async () => {
    const old = await login();
    const r = await svc(['session', 'refresh']);
    expect(r.code).toBe(0);
    expect(r.stderr).toMatch(/still processing \(attempt 1\)/);
    const now = activeSession(t)!;
    expect(now.id).not.toBe(old);
    expect(isCompressedPublicKey(now.publicKey)).toBe(true);
    expect(t.store().getSession(old)).toBeUndefined();
    expect(sessionFileModes(t.configDir).every((m) => m === 0o600)).toBe(true);
  });

  it('refresh --legacy --json warns on stderr and prints only JSON on stdout', async () => {
    const r = await svc(['--json', 'session', 'refresh', '--legacy']);
    expect(r.code).toBe(0);
    expect(r.stderr).toMatch(/deprecated/);
    expect(JSON.parse(r.stdout)).toMatchObject({ id: activeSession(t)!.id, keyStored: true, legacy: true });
    // The legacy key signs: a plain refresh after it works.
    expect((await svc(['session', 'refresh'])).code).toBe(0);
  });

  it('an expired session exits 4 and prints the reauthentication command', async () => {
    const id = await login();
    const store = t.store();
    store.saveSession({ ...store.getSession(id)!, expiresAt: new Date(Date.now() - 5_000).toISOString() });
    const r = await svc(['session', 'refresh']);
    expect(r.code).toBe(4);
    expect(r.stderr).toContain(`svc otp verify --credential ${t.emu.fixtures.credentialId}`);
  });

  it('401s exit 4 with a hint for the code: unknown key, and a session the service expired', async () => {
    const id = await login();
    const store = t.store();
    const stored = store.getSession(id)!;
    store.saveSession({ ...stored, privateKey: generateKeyPair().privateKey });
    const invalid = await svc(['session', 'refresh']);
    expect(invalid.code).toBe(4);
    expect(invalid.stderr).toMatch(/WALLET_SIGNATURE_INVALID/);
    expect(invalid.stderr).toMatch(/does not recognise this session key/);

    store.saveSession(stored);
    t.emu.testing.expireSession(id);
    const expired = await svc(['session', 'refresh']);
    expect(expired.code).toBe(4);
    expect(expired.stderr).toMatch(/Re-authenticate: svc otp verify --credential AuthMethod:/);
  });

  it('list, use and show work from the shell', async () => {
    const first = await login();
    const second = await login();
    const list = await svc(['--json', 'session', 'list']);
    expect(list.code).toBe(0);
    const rows = JSON.parse(list.stdout).data as Array<{ id: string; keyHeld: boolean }>;
    expect(rows.filter((s) => [first, second].includes(s.id)).every((s) => s.keyHeld)).toBe(true);

    expect((await svc(['session', 'use', first])).code).toBe(0);
    const show = await svc(['--json', 'session', 'show']);
    expect(JSON.parse(show.stdout)).toMatchObject({ id: first, active: true });
    expect((await svc(['session', 'use', 'Session:bad'])).code).toBe(2);
  });

  it('a damaged key file is marked on its row and named with how to remove it; everything else keeps working', async () => {
    const damagedId = await login();
    const other = await login();
    const active = await login();
    const file = join(t.configDir, 'sessions', `${sessionFileName(damagedId)}.json`);
    writeFileSync(file, '{"id": "Session:'); // cut short, as a full disk or a crash leaves it
    const list = await svc(['--json', 'session', 'list']);
    expect(list.code).toBe(0);
    const rows = JSON.parse(list.stdout).data as Array<{ id: string; keyHeld: boolean; damagedKeyFile?: string }>;
    expect(rows.find((r) => r.id === damagedId)).toMatchObject({ keyHeld: false, damagedKeyFile: file });
    expect(rows.filter((r) => [other, active].includes(r.id)).every((r) => r.keyHeld)).toBe(true);
    expect(list.stderr).toContain(`The store file ${file} is corrupt`);
    expect(list.stderr).toContain(`rm '${file}'`);
    const table = await svc(['session', 'list']);
    expect(table.code).toBe(0);
    expect(table.stdout).toMatch(new RegExp(`${damagedId}.*DAMAGED`));

    expect((await svc(['session', 'show'])).code).toBe(0);
    expect((await svc(['session', 'use', other])).code).toBe(0);
    // The active key damaged too: the list takes the account from another key of the profile.
    writeFileSync(join(t.configDir, 'sessions', `${sessionFileName(other)}.json`), 'not json');
    const again = await svc(['--json', 'session', 'list']);
    expect(again.code).toBe(0);
    expect(JSON.parse(again.stdout).data.find((r: { id: string }) => r.id === active)).toMatchObject({ keyHeld: true });
    rmSync(file);
    rmSync(join(t.configDir, 'sessions', `${sessionFileName(other)}.json`));
    expect((await svc(['session', 'use', active])).code).toBe(0);
  });

  it('revoke needs --yes in CI (exit 2, nothing sent); with --yes it revokes and forgets the key', async () => {
    const id = activeSession(t)!.id;
    const before = t.proxy.seen.length;
    const refused = await svc(['session', 'revoke', id]);
    expect(refused.code).toBe(2);
    expect(refused.stderr).toMatch(/--yes/);
    expect(t.proxy.seen.length).toBe(before);

    const r = await svc(['--yes', 'session', 'revoke', id]);
    expect(r.code).toBe(0);
    expect(t.store().getSession(id)).toBeUndefined();
    expect((await svc(['session', 'show'])).code).toBe(4);
  });

  it('never printed a private key or the client secret', () => {
    const all = outputs.map((r) => r.stdout + r.stderr).join('\n');
    expect(outputs.length).toBeGreaterThan(10);
    expect(leakedSecrets(all, [...secretsSeen, t.emu.apiClientSecret])).toEqual([]);
  });
});
