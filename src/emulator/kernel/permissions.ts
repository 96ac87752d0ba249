/**
 * What an API token's permissions allow (the description's Permission: VIEW "can view all data",
 * TRANSACT "can send payments", MANAGE "can manage platform config, api tokens and customers").
 * Each route declares the permission it needs (`Route.permission`, next to its handler); the
 * emulator's own credentials need none.
 */
import type { Principal } from './auth.js';
import { HttpError } from './errors.js';
import type { Route } from './router.js';

/**
 * When a token's permissions do not cover the route: 403 FORBIDDEN where the operation declares it
 * (`permissionRefusal`), else 401 UNAUTHORIZED with the sandbox `reason`; both name the permission.
 */
export function checkPermission(principal: Principal, route: Route, method: string, path: string): void {
  if (principal.kind !== 'platform' || !principal.permissions || route.permission === 'none') return;
  const needed = route.permission;
  if (principal.permissions.includes(needed)) return;
  const message = `The API token lacks the ${needed} permission needed for ${method} ${path}`;
  const details = { permission: needed, tokenId: principal.tokenId };
  if (route.permissionRefusal === 403) throw new HttpError(403, 'FORBIDDEN', message, { details });
  throw new HttpError(401, 'UNAUTHORIZED', message, { details, reason: message });
}
