/**
 * POST /auth/sessions/{id}/refresh, per the spec's flow rules and status table:
 * 404 unknown session; 400 bad clientPublicKey; 401 inactive target (on both steps) or any retry
 * problem (see signed-retry/); 202 challenge; 200 PROCESSING; 201 AuthSession.
 * A compressed clientPublicKey becomes the new session's key and no key material is returned; an
 * uncompressed one (deprecated legacy flow) gets a fresh session key sealed to it in
 * encryptedSessionSigningKey. The refreshed (old) session stays valid until its own expiresAt:
 * the spec does not say it ends, and revoking it is the client's explicit choice.
 */
import { generateKeyPair } from '../../../crypto/keys.js';
import { sealSessionSigningKey } from '../../../crypto/bundles.js';
import { CLIENT_PUBLIC_KEY_RULES, Fields } from '../../kernel/fields.js';
import type { Route } from '../../kernel/router.js';
import { signedFlow } from '../../signed-retry/index.js';
import { assertSessionActive, createSession, getSession, renderSession } from './sessions.js';

const REFRESH_ACTIVITY_TYPE = 'ACTIVITY_TYPE_CREATE_READ_WRITE_SESSION_V2';

export const refreshRoutes: Route[] = [
  {
    method: 'POST',
    path: '/auth/sessions/:id/refresh',
    permission: 'MANAGE',
    // Spec: "HTTP Basic … the only scheme of the refresh endpoint".
    basicOnly: true,
    handler(req, emu) {
      const session = getSession(emu, req.params.id!);
      // clientPublicKey's presence is the description's, checked before this runs; that the key is a
      // point on P-256 is the emulator's (a key it cannot seal to is bad input; its refusal names the pattern).
      const fields = new Fields(req.json());
      const clientPublicKey = fields.string('clientPublicKey', CLIENT_PUBLIC_KEY_RULES)!;
      fields.done();
      return signedFlow(emu, req, {
        kind: 'refresh',
        resourceId: session.id,
        accountId: session.accountId,
        binding: clientPublicKey,
        bindingField: 'clientPublicKey',
        begin() {
          assertSessionActive(emu, session);
          return { activityType: REFRESH_ACTIVITY_TYPE, parameters: { targetPublicKey: clientPublicKey } };
        },
        checkTarget: () => assertSessionActive(emu, session),
        async settle() {
          const method = {
            id: session.authMethodId,
            accountId: session.accountId,
            type: session.type,
            nickname: session.nickname,
          };
          const carried = session.credentialId ? { credentialId: session.credentialId } : {};
          if (clientPublicKey.length === 66) {
            const created = createSession(emu, { method, publicKey: clientPublicKey, ...carried });
            return { status: 201, body: renderSession(emu, created) };
          }
          const fresh = generateKeyPair();
          const encryptedSessionSigningKey = await sealSessionSigningKey(clientPublicKey, fresh.privateKey);
          const created = createSession(emu, { method, publicKey: fresh.publicKey, ...carried });
          return { status: 201, body: { ...renderSession(emu, created), encryptedSessionSigningKey } };
        },
      });
    },
  },
];
