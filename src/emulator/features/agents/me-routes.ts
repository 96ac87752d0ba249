/**
 * The agent's own money routes (`/agents/me/…`, Bearer only). Each checks the policy, then runs
 * the money area's handler: the kernel's agent scope already binds ids and lists to the agent's
 * customer. Spending operations (execute a quote, transfer in or out) are judged by enforce.ts:
 * refused (403), run at once, or kept as a pending AgentAction (202) for the platform to approve.
 */
import type { EmulatorContext } from '../../kernel/context.js';
import { unauthorized } from '../../kernel/errors.js';
import type { Reply, Req, Route } from '../../kernel/router.js';
import { accounts } from '../accounts/accounts.js';
import { externalAccounts } from '../external-accounts/records.js';
import { insertQuote, quotes, quoteStatus } from '../quotes/quotes.js';
import { readQuoteRequest } from '../quotes/request.js';
import { idempotencyKey, recall, remember } from '../transactions/idempotency.js';
import { agentActions, pendingAction, renderAction, requireAction } from './actions.js';
import { getAgent, type AgentRec } from './agents.js';
import { judgeSpend, requirePermission, type Permission } from './enforce.js';
import { handlerOf, runAs } from './run.js';

/** The calling agent of an `/agents/me*` request (401 with Basic: there is no agent to be). */
export function me(req: Req, emu: EmulatorContext): AgentRec {
  if (req.principal.kind !== 'agent') throw unauthorized(`${req.path} is for agents: send Authorization: Bearer <accessToken from POST /agents/device-codes/{code}/redeem>`);
  return getAgent(emu, req.principal.agentId);
}

/** `/agents/me<path>` served by the money route `method target`, after the permission (if any). */
function passThrough(method: string, path: string, target: string, permission?: Permission, params: (req: Req) => Record<string, string> = () => ({})): Route {
  const handler = handlerOf(method, target);
  return {
    method,
    path: `/agents/me${path}`,
    handler(req, emu) {
      const agent = me(req, emu);
      if (permission) requirePermission(agent, permission);
      return runAs(emu, agent, req, handler, params(req));
    },
  };
}

const executeQuote = handlerOf('POST', '/quotes/:quoteId/execute');

/** The currency of an internal or external account, if it exists. */
function currencyOf(emu: EmulatorContext, id: unknown): string | undefined {
  if (typeof id !== 'string') return undefined;
  return emu.table(accounts).get(id)?.currency ?? emu.table(externalAccounts).get(id)?.currency;
}

function transfer(direction: 'in' | 'out'): Route {
  const target = `/transfer-${direction}`;
  const handler = handlerOf('POST', target);
  return {
    method: 'POST',
    path: `/agents/me${target}`,
    async handler(req, emu) {
      const agent = me(req, emu);
      requirePermission(agent, 'CREATE_TRANSFERS');
      const key = idempotencyKey(req);
      const body = req.json();
      const sourceAccountId = (body.source as { accountId?: unknown } | undefined)?.accountId;
      const destinationAccountId = (body.destination as { accountId?: unknown } | undefined)?.accountId;
      const currency = currencyOf(emu, direction === 'out' ? sourceAccountId : destinationAccountId);
      // A repeat of a kept answer, or a body the area refuses anyway: the area answers.
      if (recall(emu, key, target) || !Number.isSafeInteger(body.amount) || (body.amount as number) < 1 || !currency) return runAs(emu, agent, req, handler);
      const amount = body.amount as number;
      const ids = [sourceAccountId, destinationAccountId] as string[];
      if (judgeSpend(emu, agent, { amount, currency, accountIds: ids }) === 'AUTO') return runAs(emu, agent, req, handler);
      const action = pendingAction(emu, agent, {
        type: direction === 'out' ? 'TRANSFER_OUT' : 'TRANSFER_IN',
        transferBody: body,
        transferDetails: { amount, currency, sourceAccountId: ids[0]!, destinationAccountId: ids[1]! },
      });
      return remember(emu, key, target, { status: 202, body: renderAction(emu, action) });
    },
  };
}

const createQuote = handlerOf('POST', '/quotes');

export const agentMeRoutes: Route[] = [
  passThrough('GET', '/transactions', '/transactions', 'VIEW_TRANSACTIONS'),
  passThrough('GET', '/transactions/:transactionId', '/transactions/:id', 'VIEW_TRANSACTIONS', (req) => ({ id: req.params.transactionId! })),
  {
    method: 'POST',
    path: '/agents/me/quotes',
    handler(req, emu): Promise<Reply> | Reply {
      const agent = me(req, emu);
      requirePermission(agent, 'CREATE_QUOTES');
      if (req.json().immediatelyExecute !== true) return runAs(emu, agent, req, createQuote);
      // A quote executed on creation spends at once: the execute permission and the policy apply.
      requirePermission(agent, 'EXECUTE_QUOTES');
      const { init } = readQuoteRequest(req, emu);
      const ids = [init.sourceAccountId, init.destinationKind === 'UMA' ? undefined : init.destinationId].filter((id): id is string => id !== undefined);
      if (judgeSpend(emu, agent, { amount: init.totalSendingAmount, currency: init.sendingCurrency, accountIds: ids }) === 'AUTO') return runAs(emu, agent, req, createQuote);
      const quote = insertQuote(emu, init);
      return { status: 202, body: renderAction(emu, pendingAction(emu, agent, { type: 'EXECUTE_QUOTE', quoteId: quote.id })) };
    },
  },
  passThrough('GET', '/quotes/:quoteId', '/quotes/:id', undefined, (req) => ({ id: req.params.quoteId! })),
  {
    method: 'POST',
    path: '/agents/me/quotes/:quoteId/execute',
    async handler(req, emu) {
      const agent = me(req, emu);
      requirePermission(agent, 'EXECUTE_QUOTES');
      const params = { quoteId: req.params.quoteId! };
      const quote = emu.table(quotes).get(req.params.quoteId!);
      // Unknown, no longer executable or already waiting for approval: the area answers (404, 409…).
      const waiting = quote && emu.table(agentActions).find((a) => a.quoteId === quote.id && a.status === 'PENDING_APPROVAL');
      if (!quote || quote.customerId !== agent.customerId || quoteStatus(emu, quote) !== 'PENDING' || waiting) {
        if (waiting) return { status: 202, body: renderAction(emu, waiting) };
        return runAs(emu, agent, req, executeQuote, params);
      }
      const ids = [quote.sourceAccountId, quote.destinationKind === 'UMA' ? undefined : quote.destinationId].filter((id): id is string => id !== undefined);
      if (judgeSpend(emu, agent, { amount: quote.totalSendingAmount, currency: quote.sendingCurrency, accountIds: ids }) === 'AUTO') {
        return runAs(emu, agent, req, executeQuote, params);
      }
      return { status: 202, body: renderAction(emu, pendingAction(emu, agent, { type: 'EXECUTE_QUOTE', quoteId: quote.id })) };
    },
  },
  transfer('in'),
  transfer('out'),
  {
    method: 'GET',
    path: '/agents/me/actions',
    handler(req, emu) {
      const agent = me(req, emu);
      const data = emu.table(agentActions).filter((a) => a.agentId === agent.id).reverse().map((a) => renderAction(emu, a));
      return { status: 200, body: { data, hasMore: false, totalCount: data.length } };
    },
  },
  {
    method: 'GET',
    path: '/agents/me/actions/:actionId',
    handler: (req, emu) => ({ status: 200, body: renderAction(emu, requireAction(emu, req.params.actionId!, me(req, emu).id)) }),
  },
  passThrough('GET', '/external-accounts', '/customers/external-accounts'),
  passThrough('POST', '/external-accounts', '/customers/external-accounts', 'MANAGE_EXTERNAL_ACCOUNTS'),
  passThrough('GET', '/external-accounts/:externalAccountId', '/customers/external-accounts/:id', undefined, (req) => ({ id: req.params.externalAccountId! })),
  passThrough('DELETE', '/external-accounts/:externalAccountId', '/customers/external-accounts/:id', 'MANAGE_EXTERNAL_ACCOUNTS', (req) => ({ id: req.params.externalAccountId! })),
];
