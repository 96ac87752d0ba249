/**
 * WebAuthn assertion checks for passkey verify, as the spec lists them: registered credential id,
 * challenge, origin and relying-party binding, user presence, assertion signature and signature
 * counter. The relying party is `localhost` (any http(s) origin on that host), the one a browser
 * grants a local page. Every failure is 401 UNAUTHORIZED with the failed check as `reason`.
 */
import { createHash, verify as nodeVerify } from 'node:crypto';
import { parseWebhookPublicKey } from '../../../crypto/webhook-signature.js';
import { unauthorized } from '../../kernel/errors.js';

const RP_ID = 'localhost';
const RP_ID_HASH = createHash('sha256').update(RP_ID).digest();
const B64URL = /^[A-Za-z0-9_-]+={0,2}$/;

export interface Assertion {
  credentialId: string;
  clientDataJson: string;
  authenticatorData: string;
  signature: string;
}

function decode(field: string, value: string): Buffer {
  if (!B64URL.test(value)) throw unauthorized(`assertion.${field} is not base64url`);
  return Buffer.from(value, 'base64url');
}

function originIsLocal(origin: unknown): boolean {
  try {
    const url = new URL(String(origin));
    return (url.protocol === 'https:' || url.protocol === 'http:') && url.hostname === RP_ID;
  } catch {
    return false;
  }
}

/** Checks the assertion against the challenge and the registered key; returns the new sign count. */
export function verifyAssertion(a: Assertion, expected: { challenge: string; publicKey: string; signCount: number }): number {
  const clientDataBytes = decode('clientDataJson', a.clientDataJson);
  let clientData: { type?: unknown; challenge?: unknown; origin?: unknown };
  try {
    clientData = JSON.parse(clientDataBytes.toString('utf8')) as typeof clientData;
  } catch {
    throw unauthorized('assertion.clientDataJson is not JSON');
  }
  if (clientData.type !== 'webauthn.get') throw unauthorized('clientDataJson.type must be webauthn.get');
  if (clientData.challenge !== expected.challenge) throw unauthorized('clientDataJson.challenge does not match the challenge issued');
  if (!originIsLocal(clientData.origin)) throw unauthorized(`clientDataJson.origin must be an origin of the relying party ${RP_ID}`);

  const authData = decode('authenticatorData', a.authenticatorData);
  if (authData.length < 37) throw unauthorized('assertion.authenticatorData is too short');
  if (!authData.subarray(0, 32).equals(RP_ID_HASH)) throw unauthorized(`authenticatorData is not bound to the relying party ${RP_ID}`);
  if ((authData[32]! & 0x01) === 0) throw unauthorized('authenticatorData lacks the user-presence flag');
  const signCount = authData.readUInt32BE(33);
  if ((signCount !== 0 || expected.signCount !== 0) && signCount <= expected.signCount) {
    throw unauthorized('The signature counter did not increase (possible cloned authenticator)');
  }

  const signed = Buffer.concat([authData, createHash('sha256').update(clientDataBytes).digest()]);
  let ok = false;
  try {
    ok = nodeVerify('sha256', signed, { key: parseWebhookPublicKey(expected.publicKey), dsaEncoding: 'der' }, decode('signature', a.signature));
  } catch {
    ok = false;
  }
  if (!ok) throw unauthorized('The assertion signature does not verify with the registered passkey');
  return signCount;
}
