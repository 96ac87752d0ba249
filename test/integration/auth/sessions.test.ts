/** `svc session list | use | show | revoke` through run() against a real emulator. */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { run as list } from '../../../commands/session/list.js';
import { run as use } from '../../../commands/session/use.js';
import { run as show } from '../../../commands/session/show.js';
import { run as revoke } from '../../../commands/session/revoke.js';
import { exitCodeFor } from '../../../commands/exit-codes.js';
import { authEnv, leakedSecrets, type AuthEnv } from './support.js';
import { activeSession, caught, login } from './login.js';

let t: AuthEnv;
beforeAll(async () => {
  t = await authEnv();
});
afterAll(() => t.close());

describe('svc session list / use / show / revoke (run)', () => {
  it('list --json marks held keys and the active session; defaults to the active account', async () => {
    const first = await login(t);
    const second = await login(t);
    const deps = t.deps({ globals: { json: true } });
    await list({}, deps);
    const { data } = JSON.parse(deps.stdout()) as { data: Array<{ id: string; keyHeld: boolean; active: boolean }> };
    expect(data.find((s) => s.id === first.id)).toMatchObject({ keyHeld: true, active: false });
    expect(data.find((s) => s.id === second.id)).toMatchObject({ keyHeld: true, active: true });
    expect(leakedSecrets(deps.stdout(), [first.privateKey, second.privateKey])).toEqual([]);
  });

  it('list prints a table on a terminal, with the active marker and the key-held column', async () => {
    const active = activeSession(t)!;
    const deps = t.deps({ tty: true });
    await list({ account: t.emu.fixtures.accountId }, deps);
    const row = deps
      .stdout()
      .split('\n')
      .find((l) => l.includes(active.id))!;
    expect(row).toMatch(/^\*\s+Session:\S+\s+EMAIL_OTP\s+\S+\s+1[45]m \d\ds\s+yes$/);
    expect(deps.stdout()).toMatch(/KEY HERE/);
  });

  it('list without --account and without an active session is exit 2 naming --account', async () => {
    const f = await authEnv();
    try {
      const error = await caught(list({}, f.deps()));
      expect(exitCodeFor(error)).toBe(2);
      expect((error as { input?: string }).input).toBe('--account');
      expect(f.proxy.seen).toEqual([]);
    } finally {
      await f.close();
    }
  });

  it('list with a wrong API secret is exit 4 with the credentials hint, not a login hint', async () => {
    const error = await caught(
      list({ account: t.emu.fixtures.accountId }, t.deps({ env: { SERVICE_API_CLIENT_SECRET: 'wrong' } })),
    );
    expect(exitCodeFor(error)).toBe(4);
    expect((error as { hint?: string }).hint).toMatch(/Check the API credentials/);
  });

  it('use switches to a held session; show prints it without the private key', async () => {
    const first = await login(t);
    await login(t);
    await use({ session: first.id }, t.deps());
    expect(activeSession(t)!.id).toBe(first.id);

    const deps = t.deps({ globals: { json: true } });
    await show({}, deps);
    const out = JSON.parse(deps.stdout());
    expect(out).toMatchObject({ id: first.id, active: true, expired: false, publicKey: first.publicKey });
    expect(out.privateKey).toBeUndefined();
    expect(leakedSecrets(deps.stdout(), [first.privateKey])).toEqual([]);
  });

  it('use refuses a session whose key is not held here (exit 2) and an expired one (exit 4)', async () => {
    const missing = await caught(use({ session: 'Session:00000000-0000-4000-8000-000000000000' }, t.deps()));
    expect(exitCodeFor(missing)).toBe(2);
    const old = await login(t);
    t.store().saveSession({ ...old, expiresAt: new Date(Date.now() - 1000).toISOString() });
    await login(t);
    const expired = await caught(use({ session: old.id }, t.deps()));
    expect(exitCodeFor(expired)).toBe(4);
  });

  it('revoke without --yes and without a terminal is exit 2 naming --yes, nothing sent', async () => {
    const target = await login(t);
    const before = t.proxy.seen.length;
    const error = await caught(revoke({ session: target.id }, t.deps()));
    expect(exitCodeFor(error)).toBe(2);
    expect((error as { input?: string }).input).toBe('--yes');
    expect(t.proxy.seen.length).toBe(before);
  });

  it('revoke on a terminal asks; declining sends nothing', async () => {
    const target = activeSession(t)!;
    const before = t.proxy.seen.length;
    const deps = t.deps({ tty: true, answers: [false] });
    const error = await caught(revoke({ session: target.id }, deps));
    expect(exitCodeFor(error)).toBe(1); // declining is a cancellation, not a Ctrl-C
    expect(deps.asked[0]).toMatch(/Revoke Session:/);
    expect(t.proxy.seen.length).toBe(before);
    expect(t.store().getSession(target.id)).toBeDefined();
  });

  it('revoke --yes signs the DELETE, forgets the key and clears the active session; the service drops it', async () => {
    const target = activeSession(t)!;
    const deps = t.deps({ globals: { yes: true } });
    await revoke({ session: target.id }, deps);
    expect(t.proxy.count(`/auth/sessions/${target.id}`, true)).toBe(1);
    expect(t.store().getSession(target.id)).toBeUndefined();
    expect(activeSession(t)).toBeUndefined();
    expect(deps.stderr()).toMatch(/Revoked/);

    const listing = t.deps({ globals: { json: true } });
    await list({ account: t.emu.fixtures.accountId }, listing);
    expect(JSON.parse(listing.stdout()).data.map((s: { id: string }) => s.id)).not.toContain(target.id);

    // show with no active session: exit 4 pointing at otp verify.
    const none = await caught(show({}, t.deps()));
    expect(exitCodeFor(none)).toBe(4);
  });

  it('revoke can sign with the active key for a session whose key is not held here', async () => {
    const other = await login(t);
    t.store().deleteSession(other.id); // e.g. a session from another machine
    const signer = await login(t);
    await revoke({ session: other.id }, t.deps({ globals: { yes: true } }));
    expect(activeSession(t)!.id).toBe(signer.id);
    const listing = t.deps({ globals: { json: true } });
    await list({}, listing);
    expect(JSON.parse(listing.stdout()).data.map((s: { id: string }) => s.id)).not.toContain(other.id);
  });
});
