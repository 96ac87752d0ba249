/**
 * What an API token's permissions allow (the description's Permission: VIEW "can view all data",
 * TRANSACT "can send payments", MANAGE "can manage platform config, api tokens and customers").
 * The emulator's reading: reads need VIEW; requests that move or price money (quotes and their
 * execution and authorization, transfers, transaction decisions, the sandbox's money simulators)
 * need TRANSACT; every other change needs MANAGE. The emulator's own credentials need none.
 */
import type { Principal } from './auth.js';
import { HttpError } from './errors.js';

const MONEY =
  /^\/(quotes|transfer-in|transfer-out|agents\/me\/(quotes|transfer-)|transactions\/[^/]+\/|sandbox\/|crypto\/|stablecoins\/[^/]+\/(mints|burns))/;

function requiredPermission(method: string, path: string): 'VIEW' | 'TRANSACT' | 'MANAGE' {
  if (method === 'GET' || method === 'HEAD') return 'VIEW';
  return MONEY.test(path) ? 'TRANSACT' : 'MANAGE';
}

/**
 * The operations whose description declares 403 for a token without the permission ("Forbidden. The
 * token lacks the TRANSACT permission", on quotes): the money simulators, quotes and their
 * execution, card reveal, invitation cancel. Every other operation declares 401 alone for
 * credentials it will not take.
 */
const DECLARES_FORBIDDEN =
  /^POST \/(quotes(\/[^/]+\/execute)?|sandbox\/(send|uma\/receive|internal-accounts\/[^/]+\/fund|cards\/[^/]+\/simulate\/[a-z_]+)|cards\/[^/]+\/reveal|invitations\/[^/]+\/cancel)$/;

/**
 * When a token's permissions do not cover the request: 403 FORBIDDEN where the operation declares
 * it, else 401 UNAUTHORIZED with the sandbox `reason`; both name the permission in `details`.
 */
export function checkPermission(principal: Principal, method: string, path: string): void {
  if (principal.kind !== 'platform' || !principal.permissions) return;
  const needed = requiredPermission(method, path);
  if (principal.permissions.includes(needed)) return;
  const message = `The API token lacks the ${needed} permission needed for ${method} ${path}`;
  const details = { permission: needed, tokenId: principal.tokenId };
  if (DECLARES_FORBIDDEN.test(`${method} ${path}`)) throw new HttpError(403, 'FORBIDDEN', message, { details });
  throw new HttpError(401, 'UNAUTHORIZED', message, { details, reason: message });
}
