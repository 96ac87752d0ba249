/**
 * `svc api --show-payload` and `svc trigger` on a pseudo-terminal: the payload is shown and the
 * question asked before anything is signed ("n" signs nothing, exit 1; "y" signs), and a
 * trigger that waits shows its progress and ends with the summary.
 */
import { afterAll, beforeAll, expect, it } from 'vitest';
import { runSvc } from '../helpers/spawn-svc.js';
import { generateKeyPair } from '../../src/crypto/keys.js';
import { authEnv, leakedSecrets, type AuthEnv } from '../integration/auth/support.js';
import { activeSession, spawnedLogin } from '../integration/auth/login.js';
import { svcOnPty } from '../integration/auth/pty.js';

let t: AuthEnv;
beforeAll(async () => (t = await authEnv({ timeScale: 20 })));
afterAll(() => t.close());

async function sessionIds(accountId: string): Promise<string[]> {
  const r = await runSvc(['--json', 'api', 'GET', '/auth/sessions', '--query', `accountId=${accountId}`], {
    env: t.env,
    configDir: t.configDir,
  });
  return (JSON.parse(r.stdout) as { data: { id: string }[] }).data.map((s) => s.id);
}

it('--show-payload asks before signing: "n" leaves the session, "y" revokes it', async () => {
  expect((await spawnedLogin(t)).code).toBe(0);
  const signer = activeSession(t)!;
  const victim = t.emu.testing.createSession(generateKeyPair().publicKey) as { id: string };

  const no = svcOnPty(['api', 'DELETE', `/auth/sessions/${victim.id}`, '--show-payload'], t.env);
  try {
    await no.waitFor(/ACTIVITY_TYPE_DELETE_SESSION/);
    await no.waitFor(/Sign this payload with the session key\?/);
    no.type('n\r');
    expect(await no.exited).toBe(1); // a "no" is a cancellation (exit 1), not a Ctrl-C (130)
  } finally {
    no.kill();
  }
  expect(no.screen()).toContain('nothing was signed');
  expect(await sessionIds(signer.accountId)).toContain(victim.id);

  const yes = svcOnPty(['api', 'DELETE', `/auth/sessions/${victim.id}`, '--show-payload'], t.env);
  try {
    await yes.waitFor(/Sign this payload with the session key\?/);
    yes.type('y\r');
    expect(await yes.exited).toBe(0);
  } finally {
    yes.kill();
  }
  expect(yes.screen()).toContain(`Signed the challenge with ${signer.id}`);
  expect(await sessionIds(signer.accountId)).not.toContain(victim.id);
  expect(leakedSecrets(no.screen() + yes.screen(), [signer.privateKey, t.emu.apiClientSecret])).toEqual([]);
});

it('svc trigger card.frozen --wait shows its progress on a terminal, then the summary', async () => {
  const run = svcOnPty(['trigger', 'card.frozen', '--wait'], t.env);
  try {
    expect(await run.exited).toBe(0);
  } finally {
    run.kill();
  }
  // The spinner paints its first line at once; later steps may pass between two frames on a fast emulator.
  expect(run.screen()).toMatch(
    /card\.frozen: (checking the token is a sandbox one|Issuing a virtual card|Waiting for the issuer)/,
  );
  expect(run.screen()).toMatch(/observed +status FROZEN, state FROZEN/);
  expect(run.screen()).toContain("As the spec's table says");
});
