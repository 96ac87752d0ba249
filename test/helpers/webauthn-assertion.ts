/**
 * A hand-made WebAuthn assertion signed by node:crypto, independent of the software authenticator
 * (src/auth/software-passkey.ts), with knobs for each field the relying party checks.
 */
import { createHash, generateKeyPairSync, sign, type KeyObject } from 'node:crypto';

export function passkeyPair(): { privateKey: KeyObject; publicHex: string } {
  const { privateKey, publicKey } = generateKeyPairSync('ec', { namedCurve: 'prime256v1' });
  const jwk = publicKey.export({ format: 'jwk' });
  return {
    privateKey,
    publicHex: `04${Buffer.from(jwk.x!, 'base64url').toString('hex')}${Buffer.from(jwk.y!, 'base64url').toString('hex')}`,
  };
}

export interface AssertionKnobs {
  challenge: string;
  origin?: string;
  rpId?: string;
  flags?: number;
  signCount?: number;
  type?: string;
  key?: KeyObject;
}

export function assertion(credentialId: string, key: KeyObject, k: AssertionKnobs) {
  const clientData = Buffer.from(
    JSON.stringify({
      type: k.type ?? 'webauthn.get',
      challenge: k.challenge,
      origin: k.origin ?? 'http://localhost:5173',
    }),
  );
  const counter = Buffer.alloc(4);
  counter.writeUInt32BE(k.signCount ?? 1);
  const authData = Buffer.concat([
    createHash('sha256')
      .update(k.rpId ?? 'localhost')
      .digest(),
    Buffer.from([k.flags ?? 0x05]),
    counter,
  ]);
  const signature = sign('sha256', Buffer.concat([authData, createHash('sha256').update(clientData).digest()]), {
    key: k.key ?? key,
    dsaEncoding: 'der',
  });
  return {
    credentialId,
    clientDataJson: clientData.toString('base64url'),
    authenticatorData: authData.toString('base64url'),
    signature: signature.toString('base64url'),
  };
}
