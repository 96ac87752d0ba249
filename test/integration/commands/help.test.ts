/**
 * What `--help` tells an integrator: each verb that takes more than an id shows examples, and the
 * rules a script trips over (CI needs --code / --yes, expired sessions exit 4) are stated there.
 * Spawned, because commander prints addHelpText only when help is really shown.
 */
import { describe, expect, it } from 'vitest';
import { runSvc } from '../../helpers/spawn-svc.js';

describe('help texts', () => {
  it.each([
    [['otp', 'verify'], /In CI, or with --no-input, --code is\s+required/],
    [['session', 'refresh'], /expired session cannot be refreshed: svc says so \(exit 4\)/],
    [['session', 'revoke'], /Without a terminal \(CI, --no-input\) --yes is required/],
    [['sandbox', 'fund'], /\$ svc sandbox fund InternalAccount:<uuid> --amount 100000/],
    [['sandbox', 'send'], /\$ svc sandbox send --quote Quote:<uuid> --currency USD/],
    [['sandbox', 'uma-receive'], /\$ svc sandbox uma-receive --sender '\$success\.usd@/],
    [['cards', 'reveal'], /\$ svc cards reveal Card:<uuid> --open/],
    [['config', 'set'], /config set api-client-secret -/],
    [['demo'], /\$ svc demo --interactive/],
    [['api'], /\$ svc api DELETE \/auth\/sessions\/Session:<uuid> +# 202 challenge signed for you/],
    [['trigger'], /\$ svc trigger kyc\.rejected --set customer\.fullName="Jane Roe 002"/],
    [['login', 'oauth'], /run with --nonce, have the identity provider issue a token/],
    [['login', 'passkey'], /svc credentials add passkey --software/],
    [['credentials', 'add'], /\$ svc credentials add passkey --software/],
    [['credentials', 'remove'], /last credential cannot be removed/],
  ])('svc %j --help shows an example', async (words, text) => {
    const r = await runSvc([...words, '--help']);
    expect(r.code).toBe(0);
    expect(r.stdout).toMatch(/Examples?( \([^)]*\))?:\n {2}\$ svc /);
    expect(r.stdout).toMatch(text);
  });
});
