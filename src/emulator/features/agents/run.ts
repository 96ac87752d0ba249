/**
 * Running a money area's own route handler for an agent: `/agents/me*` and approved actions reuse
 * the handlers of quotes, transfers, transactions and external accounts (one implementation each),
 * and tag the transaction they make with the agent (the description's `agentId`), which is what
 * the agent's usage and spending limits count.
 */
import type { EmulatorContext } from '../../kernel/context.js';
import type { Handler, Reply, Req, Route } from '../../kernel/router.js';
import { externalAccountRoutes } from '../external-accounts/routes.js';
import { quoteRoutes } from '../quotes/routes.js';
import { transactionRoutes } from '../transactions/routes.js';
import { idempotentAnswers } from '../../kernel/idempotency.js';
import { transactions } from '../transactions/transactions.js';
import { transferRoutes } from '../transfers/routes.js';
import type { AgentRec } from './agents.js';

const AREAS: readonly Route[] = [...quoteRoutes, ...transferRoutes, ...transactionRoutes, ...externalAccountRoutes];

/** The route a money area serves `method path` with (a programming error when there is none). */
export function areaRoute(method: string, path: string): Route {
  const route = AREAS.find((r) => r.method === method && r.path === path);
  if (!route) throw new Error(`No money route ${method} ${path}`);
  return route;
}

/** Marks the transaction a reply made (a transaction, or a quote that has one) as the agent's. */
export function tagTransaction(emu: EmulatorContext, agent: AgentRec, reply: Reply): Reply {
  const body = reply.body as { id?: unknown; transactionId?: unknown } | undefined;
  const id =
    typeof body?.transactionId === 'string'
      ? body.transactionId
      : typeof body?.id === 'string' && body.id.startsWith('Transaction:')
        ? body.id
        : undefined;
  const tx = id ? emu.table(transactions).get(id) : undefined;
  if (tx && tx.fields.agentId === undefined) {
    tx.fields.agentId = agent.id;
    // set, not changed(): the agent's spending limits find its transactions by this tag (byAgent).
    emu.table(transactions).set(tx.id, tx);
    return { ...reply, body: { ...(reply.body as object), ...(body?.id === tx.id ? { agentId: agent.id } : {}) } };
  }
  return reply;
}

/** Runs handler with the route's parameter names and tags what it made. */
export async function runAs(
  emu: EmulatorContext,
  agent: AgentRec,
  req: Req,
  handler: Handler,
  params: Record<string, string> = {},
): Promise<Reply> {
  const reply = await handler({ ...req, params }, emu);
  const tagged = tagTransaction(emu, agent, reply);
  // The area kept its answer under the Idempotency-Key before the tag: a repeat gets the tagged one.
  const key = req.header('idempotency-key');
  const kept = key === undefined ? undefined : emu.table(idempotentAnswers).get(key);
  if (kept && tagged !== reply && kept.reply.body === reply.body) {
    kept.reply = tagged;
    emu.changed();
  }
  return tagged;
}

/**
 * A request as the agent would have sent it, for running an approved action: the stored body, no
 * headers (the platform's approval carries no key or signature of the agent's).
 */
export function agentRequest(req: Req, agent: AgentRec, path: string, body: Record<string, unknown>): Req {
  return {
    ...req,
    path,
    headers: { 'content-type': 'application/json' },
    header: (name) => (name.toLowerCase() === 'content-type' ? 'application/json' : undefined),
    raw: Buffer.from(JSON.stringify(body)),
    json: () => body,
    params: {},
    query: new URLSearchParams(),
    principal: { kind: 'agent', agentId: agent.id, customerId: agent.customerId },
  };
}
