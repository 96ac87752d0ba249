/**
 * The agent's own money routes (`/agents/me/…`, Bearer only), and the gates that hold an agent's
 * Bearer calls of the money areas' own paths to the same policy. Each checks the policy, then runs
 * the money area's handler: the kernel's agent scope already binds ids and lists to the agent's
 * customer. Spending operations (execute a quote, transfer in or out) are judged by enforce.ts:
 * refused (403), run at once, or kept as a pending AgentAction for the platform to approve. At
 * `/agents/me` they answer the AgentAction either way (action-answer.ts). On the area's own path an
 * agent gets the area's answer; one that must wait is 403 FORBIDDEN naming the pending action (the
 * area's operation answers a transaction, which does not exist yet, and declares no 202 for it; the
 * spec answers a policy's refusal of an agent with 403). A quote created with
 * `immediatelyExecute` that must wait is answered as created (201 Quote), its execution pending.
 */
import type { EmulatorContext } from '../../kernel/context.js';
import { HttpError } from '../../kernel/errors.js';
import type { Handler, Reply, Req, Route } from '../../kernel/router.js';
import { accounts } from '../accounts/accounts.js';
import { externalAccounts } from '../external-accounts/records.js';
import { insertQuote, quotes, quoteStatus, renderQuote } from '../quotes/quotes.js';
import { readQuoteRequest } from '../quotes/request.js';
import { idempotencyKey, recall, remember } from '../../kernel/idempotency.js';
import { actionReply, type ActionAnswer } from './action-answer.js';
import { type ActionRec, actionsByQuote, agentActions, pendingAction } from './actions.js';
import { getAgent, me, type AgentRec } from './agents.js';
import { judgeSpend, requirePermission, type Permission } from './enforce.js';
import { areaRoute, runAs } from './run.js';

/**
 * One agent operation: `/agents/me<me>` and the money area's own `<area>` path run the same
 * policy for an agent (the spec: agent credentials are "subject to the agent's policy" wherever
 * they are used). `run` sees the request with the area's parameter names.
 */
interface AgentOp {
  method: string;
  me: string;
  area: string;
  /** The area's parameters from the `/agents/me` route's (e.g. quoteId → id). */
  params?: (p: Record<string, string>) => Record<string, string>;
  run(agent: AgentRec, req: Req, emu: EmulatorContext, area: Handler): Reply | Promise<Reply>;
  /** A spending operation: at `/agents/me` it answers its AgentAction, with this status. */
  action?: ActionAnswer;
  /** The permission the agent needs to call it at all (checked before the request's schema). */
  permission?: Permission;
}

/** An operation that only needs a permission (or none) before the area runs it. */
function permitted(
  method: string,
  mePath: string,
  area: string,
  permission?: Permission,
  params?: AgentOp['params'],
): AgentOp {
  return {
    method,
    me: mePath,
    area,
    ...(params ? { params } : {}),
    ...(permission ? { permission } : {}),
    run(agent, req, emu, handler) {
      return runAs(emu, agent, req, handler, req.params);
    },
  };
}

/** The currency of an internal or external account, if it exists. */
function currencyOf(emu: EmulatorContext, id: unknown): string | undefined {
  if (typeof id !== 'string') return undefined;
  return emu.table(accounts).get(id)?.currency ?? emu.table(externalAccounts).get(id)?.currency;
}

/** Accounts a quote touches (a UMA address is none). */
const quoteAccounts = (q: { sourceAccountId?: string; destinationKind: string; destinationId: string }): string[] =>
  [q.sourceAccountId, q.destinationKind === 'UMA' ? undefined : q.destinationId].filter(
    (id): id is string => id !== undefined,
  );

function transfer(direction: 'in' | 'out'): AgentOp {
  const target = `/transfer-${direction}`;
  return {
    method: 'POST',
    me: target,
    area: target,
    action: { type: direction === 'out' ? 'TRANSFER_OUT' : 'TRANSFER_IN', status: 201 },
    permission: 'CREATE_TRANSFERS',
    run(agent, req, emu, handler) {
      const key = idempotencyKey(req);
      const body = req.json();
      const sourceAccountId = (body.source as { accountId?: unknown } | undefined)?.accountId;
      const destinationAccountId = (body.destination as { accountId?: unknown } | undefined)?.accountId;
      const currency = currencyOf(emu, direction === 'out' ? sourceAccountId : destinationAccountId);
      // A repeat of a kept answer, or a body the area refuses anyway: the area answers.
      if (recall(emu, key, target) || !Number.isSafeInteger(body.amount) || (body.amount as number) < 1 || !currency)
        return runAs(emu, agent, req, handler);
      const amount = body.amount as number;
      const ids = [sourceAccountId, destinationAccountId] as string[];
      if (judgeSpend(emu, agent, { amount, currency, accountIds: ids }) === 'AUTO')
        return runAs(emu, agent, req, handler);
      const action = pendingAction(emu, agent, {
        type: direction === 'out' ? 'TRANSFER_OUT' : 'TRANSFER_IN',
        transferBody: body,
        transferDetails: { amount, currency, sourceAccountId: ids[0]!, destinationAccountId: ids[1]! },
      });
      return remember(emu, key, target, pendingReply(action), true);
    },
  };
}

/**
 * An operation the policy holds for the platform's approval. At `/agents/me` actionReply turns it
 * into the AgentAction with the declared status; on the area's path it stays this 403.
 */
function pendingReply(action: ActionRec): Reply {
  const error = new HttpError(
    403,
    'FORBIDDEN',
    `The agent's policy holds this operation for the platform's approval: it is ${action.id} (PENDING_APPROVAL). Follow it at GET /agents/me/actions/${action.id}; the /agents/me routes answer the action itself.`,
    { details: { actionId: action.id, actionStatus: 'PENDING_APPROVAL' } },
  );
  return { status: 403, body: error.toBody() };
}

const createQuote: AgentOp = {
  method: 'POST',
  me: '/quotes',
  area: '/quotes',
  permission: 'CREATE_QUOTES',
  run(agent, req, emu, handler) {
    if (req.json().immediatelyExecute !== true) return runAs(emu, agent, req, handler);
    // A quote executed on creation spends at once: the execute permission and the policy apply.
    requirePermission(agent, 'EXECUTE_QUOTES');
    const { init } = readQuoteRequest(req, emu);
    if (
      judgeSpend(emu, agent, {
        amount: init.totalSendingAmount,
        currency: init.sendingCurrency,
        accountIds: quoteAccounts(init),
      }) === 'AUTO'
    )
      return runAs(emu, agent, req, handler);
    const quote = insertQuote(emu, init);
    pendingAction(emu, agent, { type: 'EXECUTE_QUOTE', quoteId: quote.id });
    return { status: 201, body: renderQuote(emu, quote) };
  },
};

const executeQuote: AgentOp = {
  method: 'POST',
  me: '/quotes/:quoteId/execute',
  area: '/quotes/:quoteId/execute',
  params: (p) => ({ quoteId: p.quoteId! }),
  action: { type: 'EXECUTE_QUOTE', status: 200 },
  permission: 'EXECUTE_QUOTES',
  run(agent, req, emu, handler) {
    const quote = emu.table(quotes).get(req.params.quoteId!);
    const waiting =
      quote &&
      emu
        .table(agentActions)
        .where(actionsByQuote, quote.id)
        .find((a) => a.status === 'PENDING_APPROVAL');
    if (waiting) return pendingReply(waiting);
    // Unknown, another's or no longer executable: the area answers (404, 409…).
    if (!quote || quote.customerId !== agent.customerId || quoteStatus(emu, quote) !== 'PENDING')
      return runAs(emu, agent, req, handler, req.params);
    if (
      judgeSpend(emu, agent, {
        amount: quote.totalSendingAmount,
        currency: quote.sendingCurrency,
        accountIds: quoteAccounts(quote),
      }) === 'AUTO'
    ) {
      return runAs(emu, agent, req, handler, req.params);
    }
    return pendingReply(pendingAction(emu, agent, { type: 'EXECUTE_QUOTE', quoteId: quote.id }));
  },
};

const byId = (name: string) => (p: Record<string, string>) => ({ id: p[name]! });

const OPS: readonly AgentOp[] = [
  permitted('GET', '/transactions', '/transactions', 'VIEW_TRANSACTIONS'),
  permitted('GET', '/transactions/:transactionId', '/transactions/:id', 'VIEW_TRANSACTIONS', byId('transactionId')),
  createQuote,
  permitted('GET', '/quotes/:quoteId', '/quotes/:id', undefined, byId('quoteId')),
  executeQuote,
  transfer('in'),
  transfer('out'),
  permitted('GET', '/external-accounts', '/customers/external-accounts'),
  permitted('POST', '/external-accounts', '/customers/external-accounts', 'MANAGE_EXTERNAL_ACCOUNTS'),
  permitted(
    'GET',
    '/external-accounts/:externalAccountId',
    '/customers/external-accounts/:id',
    undefined,
    byId('externalAccountId'),
  ),
  permitted(
    'DELETE',
    '/external-accounts/:externalAccountId',
    '/customers/external-accounts/:id',
    'MANAGE_EXTERNAL_ACCOUNTS',
    byId('externalAccountId'),
  ),
];

/** `/agents/me…`: AgentAuth only. */
const meRoute = (op: AgentOp): Route => {
  const { handler: area, permission } = areaRoute(op.method, op.area);
  return {
    method: op.method,
    path: `/agents/me${op.me}`,
    permission,
    guard(req, emu) {
      const agent = me(req, emu);
      if (op.permission) requirePermission(agent, op.permission);
    },
    async handler(req, emu) {
      const agent = me(req, emu);
      const reply = await op.run(agent, { ...req, params: op.params?.(req.params) ?? {} }, emu, area);
      return op.action ? actionReply(emu, agent, op.action, reply) : reply;
    },
  };
};

/**
 * The area's own path: the platform goes straight to the area; an agent's Bearer token goes
 * through the same policy. Matched before the area's route (features.ts lists agents first).
 */
const gateRoute = (op: AgentOp): Route => {
  const { handler: area, permission, permissionRefusal } = areaRoute(op.method, op.area);
  return {
    method: op.method,
    path: op.area,
    permission,
    ...(permissionRefusal ? { permissionRefusal } : {}),
    guard(req, emu) {
      if (req.principal.kind === 'agent' && op.permission)
        requirePermission(getAgent(emu, req.principal.agentId), op.permission);
    },
    handler: (req, emu) =>
      req.principal.kind === 'agent' ? op.run(getAgent(emu, req.principal.agentId), req, emu, area) : area(req, emu),
  };
};

export const agentMeRoutes: Route[] = [...OPS.map(meRoute)];

export const agentGateRoutes: Route[] = OPS.map(gateRoute);
