/** `POST /tokens` (201 with the secret, once), `GET /tokens` (paged, filtered), `GET` and `DELETE /tokens/{id}`. */
import { parseDateTime } from '../../../date-time.js';
import { Fields } from '../../kernel/fields.js';
import { pageOf, readPage } from '../../kernel/paging.js';
import type { Route } from '../../kernel/router.js';
import { apiTokens, issueToken, renderToken, tokenOr404 } from './tokens.js';

export const tokenRoutes: Route[] = [
  {
    method: 'POST',
    path: '/tokens',
    permission: 'MANAGE',
    handler(req, emu) {
      const f = new Fields(req.json());
      // Required fields and the permissions' enum are the description's, checked before this runs.
      const name = f.string('name', { minLength: 1, maxLength: 255 });
      const permissions = f.stringArray('permissions', { minItems: 1 });
      f.done();
      const { token, secret } = issueToken(emu, name!, permissions!);
      return { status: 201, body: { ...renderToken(token), clientSecret: secret } };
    },
  },
  {
    method: 'GET',
    path: '/tokens',
    permission: 'VIEW',
    handler(req, emu) {
      const f = new Fields(Object.fromEntries(req.query));
      const name = f.string('name');
      const bounds = (['createdAfter', 'createdBefore', 'updatedAfter', 'updatedBefore'] as const).map((b) => {
        const v = f.string(b, { format: 'date-time' });
        return v === undefined ? undefined : parseDateTime(v);
      });
      const paging = readPage(f);
      f.done();
      const [createdAfter, createdBefore, updatedAfter, updatedBefore] = bounds;
      const picked = emu.table(apiTokens).filter((t) => {
        const created = Date.parse(t.createdAt);
        const updated = Date.parse(t.updatedAt);
        return (
          (!name || t.name === name) &&
          (createdAfter === undefined || created > createdAfter) &&
          (createdBefore === undefined || created < createdBefore) &&
          (updatedAfter === undefined || updated > updatedAfter) &&
          (updatedBefore === undefined || updated < updatedBefore)
        );
      });
      return { status: 200, body: pageOf(picked.map(renderToken), paging) };
    },
  },
  {
    method: 'GET',
    path: '/tokens/:id',
    permission: 'VIEW',
    handler: (req, emu) => ({ status: 200, body: renderToken(tokenOr404(emu, req.params.id!)) }),
  },
  {
    method: 'DELETE',
    path: '/tokens/:id',
    permission: 'MANAGE',
    handler(req, emu) {
      emu.table(apiTokens).delete(tokenOr404(emu, req.params.id!).id);
      return { status: 204 };
    },
  },
];
