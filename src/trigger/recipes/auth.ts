/**
 * auth.*: an OTP login on the caller's credential with the sandbox's fixed code (or a wrong one),
 * and the legacy wallet signature revoking the session that login made. The session key never
 * leaves this run: every session made here is revoked before the report.
 */
import { otpLogin } from '../../auth/otp-login.js';
import { createStamper } from '../../crypto/stamp.js';
import { ApiError } from '../../errors.js';
import { SANDBOX_OTP_CODE } from '../../service/auth-magic.js';
import { signedRequest } from '../../signing/engine.js';
import type { Scenario } from '../catalog.js';
import type { Body, TriggerContext } from '../context.js';

export async function otpScenario(ctx: TriggerContext, scenario: Scenario): Promise<Body> {
  const credentialId = ctx.inputs.credentialId!;
  ctx.resources.credentialId = credentialId;
  ctx.reused.push('credentialId');
  const code =
    scenario.name === 'auth.otp-code' || scenario.name === 'auth.legacy-wallet-signature'
      ? SANDBOX_OTP_CODE
      : scenario.magic.value;
  ctx.progress(`Logging in on ${credentialId} with code ${code}`);
  let login;
  try {
    login = await otpLogin({
      client: ctx.client,
      credentialId,
      trust: ctx.inputs.otpTrust,
      getCode: async () => code,
      maxAttempts: 1,
      signal: ctx.signal,
    });
  } catch (error) {
    if (scenario.name === 'auth.otp-wrong-code' && error instanceof ApiError && error.status === 401) {
      return {
        status: error.code,
        httpStatus: error.status,
        code: error.code,
        ...(error.reason ? { reason: error.reason } : {}),
      };
    }
    throw error;
  }
  const sessionId = (ctx.resources.sessionId = login.session.id);
  const legacy = scenario.name === 'auth.legacy-wallet-signature';
  ctx.progress(`Revoking ${sessionId}${legacy ? ' with the legacy signature' : ''}`);
  const revoked = await signedRequest(ctx.client, {
    method: 'DELETE',
    path: `/auth/sessions/${sessionId}`,
    sign: legacy ? () => scenario.magic.value : createStamper(login.privateKey),
    signal: ctx.signal,
  });
  if (legacy) return { status: revoked.status, httpStatus: revoked.status, sessionType: login.session.type };
  return { status: 200, httpStatus: 200, sessionType: login.session.type, revokedAfter: revoked.status === 204 };
}
