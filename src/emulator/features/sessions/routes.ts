/** The session list and the signed revoke. */
import { idPattern } from '../../../service/identifiers.js';
import { invalidInput } from '../../kernel/errors.js';
import { Fields } from '../../kernel/fields.js';
import type { Route } from '../../kernel/router.js';
import { signedFlow } from '../../signed-retry/index.js';
import { accounts } from '../accounts/accounts.js';
import { getSession, isSessionActive, renderSession, sessions, sessionsByAccount } from './sessions.js';

export const sessionRoutes: Route[] = [
  {
    method: 'GET',
    path: '/auth/sessions',
    permission: 'VIEW',
    handler(req, emu) {
      // accountId is required by the description, checked before this runs; its kind is the emulator's rule.
      const fields = new Fields(Object.fromEntries(req.query));
      const accountId = fields.string('accountId', { pattern: idPattern('InternalAccount') });
      fields.done();
      // The description declares no 404 for this list: an unknown account is a bad field.
      if (!emu.table(accounts).has(accountId!))
        throw invalidInput([{ field: 'accountId', message: `InternalAccount ${accountId} not found` }]);
      const data = emu
        .table(sessions)
        .where(sessionsByAccount, accountId!)
        .filter((s) => isSessionActive(emu, s))
        .map((s) => renderSession(emu, s));
      return { status: 200, body: { data, hasMore: false } };
    },
  },
  {
    method: 'DELETE',
    path: '/auth/sessions/:id',
    permission: 'MANAGE',
    handler(req, emu) {
      const session = getSession(emu, req.params.id!);
      return signedFlow(emu, req, {
        kind: 'revoke',
        resourceId: session.id,
        accountId: session.accountId,
        binding: '',
        bindingField: 'body',
        begin() {
          // Revoking an already revoked or expired session is a no-op, so there is nothing to sign.
          if (!isSessionActive(emu, session)) return { status: 204 };
          // The description's AuthSignedRequestChallenge: the 202 names the session's credential type.
          return {
            activityType: 'ACTIVITY_TYPE_DELETE_SESSION',
            parameters: { sessionId: session.id },
            lead: { type: session.type },
          };
        },
        checkTarget: () => undefined,
        async settle() {
          if (session.revokedAtMs === undefined) {
            session.revokedAtMs = emu.now();
            session.updatedAt = emu.iso();
            emu.changed();
          }
          return { status: 204 };
        },
      });
    },
  },
];
