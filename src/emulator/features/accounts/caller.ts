/**
 * Money belongs to a customer or to the platform. The kernel's agent scope hides other customers'
 * records from an agent but lets through what belongs to nobody in particular; the platform's own
 * accounts and transactions are not nobody's, so the money areas also hide them from agents.
 */
import type { Req } from '../../kernel/router.js';

/** The customer an agent caller is bound to; undefined for the platform (Basic). */
export function agentCustomer(req: Req): string | undefined {
  return req.principal.kind === 'agent' ? req.principal.customerId : undefined;
}

/** Whether the caller may see a record owned by customerId (undefined or '': the platform's). */
export function callerMaySee(req: Req, customerId: string | undefined): boolean {
  const bound = agentCustomer(req);
  return bound === undefined || bound === customerId;
}
