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

export function requiredPermission(method: string, path: string): 'VIEW' | 'TRANSACT' | 'MANAGE' {
  if (method === 'GET' || method === 'HEAD') return 'VIEW';
  return MONEY.test(path) ? 'TRANSACT' : 'MANAGE';
}

/** 403 FORBIDDEN when a token's permissions do not cover the request. */
export function checkPermission(principal: Principal, method: string, path: string): void {
  if (principal.kind !== 'platform' || !principal.permissions) return;
  const needed = requiredPermission(method, path);
  if (!principal.permissions.includes(needed))
    throw new HttpError(403, 'FORBIDDEN', `The API token lacks the ${needed} permission needed for ${method} ${path}`, {
      details: { permission: needed, tokenId: principal.tokenId },
    });
}
