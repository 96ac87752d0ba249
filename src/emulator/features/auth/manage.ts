/**
 * GET /auth/credentials?accountId= (not paginated: `{data}`; an unknown account has none) and the
 * signed DELETE /auth/credentials/{id}: 202, then a retry stamped by a session of another
 * credential of the same account → 204. The last credential of an account cannot go (400): the
 * wallet would be locked. Revoking a credential also ends the sessions it issued, since their keys
 * were vouched for by it.
 */
import { idPattern } from '../../../service/identifiers.js';
import { badRequest, notFound } from '../../kernel/errors.js';
import { Fields } from '../../kernel/fields.js';
import type { Route } from '../../kernel/router.js';
import type { EmulatorContext } from '../../kernel/context.js';
import { pendingRequests, signedFlow } from '../../signed-retry/index.js';
import { sessions, sessionsByCredential } from '../sessions/sessions.js';
import { authMethods, credentialsOf, getCredential, renderAuthMethod, type AuthMethodRec } from './credentials.js';

function refuseLast(emu: EmulatorContext, method: AuthMethodRec): void {
  if (credentialsOf(emu, method.accountId).length <= 1) {
    throw badRequest(
      'INVALID_INPUT',
      `${method.id} is the last credential of ${method.accountId}; add another before revoking it`,
    );
  }
}

export const manageRoutes: Route[] = [
  {
    method: 'GET',
    path: '/auth/credentials',
    permission: 'VIEW',
    handler(req, emu) {
      // accountId is required by the description, checked before this runs; its kind is the emulator's rule.
      const f = new Fields(Object.fromEntries(req.query));
      const accountId = f.string('accountId', { pattern: idPattern('InternalAccount') });
      f.done();
      return { status: 200, body: { data: credentialsOf(emu, accountId!).map(renderAuthMethod) } };
    },
  },
  {
    method: 'DELETE',
    path: '/auth/credentials/:id',
    permission: 'MANAGE',
    handler(req, emu) {
      const id = req.params.id!;
      // A re-send of a settled revoke finds the credential gone: its challenge still answers (204).
      const requestId = req.header('request-id');
      const settled = requestId ? emu.table(pendingRequests).get(requestId) : undefined;
      const replay =
        settled?.kind === 'credential-revoke' && settled.resourceId === id && settled.outcome !== undefined;
      const method = replay ? emu.table(authMethods).get(id) : getCredential(emu, id);
      return signedFlow(emu, req, {
        kind: 'credential-revoke',
        resourceId: id,
        accountId: method?.accountId ?? settled!.accountId,
        binding: '',
        bindingField: 'body',
        begin() {
          if (!method) throw notFound('AuthMethod', id);
          refuseLast(emu, method);
          return {
            activityType: 'ACTIVITY_TYPE_DELETE_AUTHENTICATORS',
            parameters: { authenticatorId: id },
            excludedSignerCredential: id,
            lead: { type: method.type },
          };
        },
        checkTarget: () => undefined,
        async settle() {
          if (method && emu.table(authMethods).has(id)) {
            refuseLast(emu, method);
            emu.table(authMethods).delete(id);
            const now = emu.now();
            for (const s of emu
              .table(sessions)
              .where(sessionsByCredential, id)
              .filter((s) => s.revokedAtMs === undefined)) {
              s.revokedAtMs = now;
              s.updatedAt = emu.iso(now);
            }
            emu.changed();
          }
          return { status: 204 };
        },
      });
    },
  },
];
