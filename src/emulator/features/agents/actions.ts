/**
 * Agent actions (the description's AgentAction): an operation the policy sends to the platform
 * for approval instead of running it. It is kept with what it would run; approval runs it then
 * (under the policy's limits of that moment), rejection drops it. `AGENT_ACTION.PENDING_APPROVAL`
 * announces each new one.
 */
import type { EmulatorContext } from '../../kernel/context.js';
import { notFound } from '../../kernel/errors.js';
import { lenientPage, pageOf } from '../../kernel/paging.js';
import type { Route } from '../../kernel/router.js';
import { durableTable, tableIndex } from '../../kernel/tables.js';
import { customers } from '../customers/customers.js';
import { quotes, renderQuote } from '../quotes/quotes.js';
import { renderTransaction, transactions } from '../transactions/transactions.js';
import { me, type AgentRec } from './agents.js';
import { newId } from '../../kernel/ids.js';

export type ActionType = 'EXECUTE_QUOTE' | 'TRANSFER_OUT' | 'TRANSFER_IN';
type ActionStatus = 'PENDING_APPROVAL' | 'APPROVED' | 'REJECTED' | 'FAILED';

export interface ActionRec {
  id: string;
  agentId: string;
  customerId: string;
  status: ActionStatus;
  type: ActionType;
  quoteId?: string;
  /** A transfer's request body, run as sent once approved. */
  transferBody?: Record<string, unknown>;
  transferDetails?: { amount: number; currency: string; sourceAccountId: string; destinationAccountId: string };
  transactionId?: string;
  rejectionReason?: string;
  createdAt: string;
  updatedAt: string;
}

export const agentActions = durableTable<ActionRec>('agentActions', {
  id: 'string',
  agentId: 'string',
  customerId: 'string',
  status: 'string',
  type: 'string',
  quoteId: 'string?',
  transferBody: 'object?',
  transferDetails: 'object?',
  transactionId: 'string?',
  rejectionReason: 'string?',
  createdAt: 'string',
  updatedAt: 'string',
});
const actionsByAgent = tableIndex<ActionRec>((a) => a.agentId);
export const actionsByQuote = tableIndex<ActionRec>((a) => a.quoteId);

export function renderAction(emu: EmulatorContext, a: ActionRec): Record<string, unknown> {
  const quote = a.quoteId ? emu.table(quotes).get(a.quoteId) : undefined;
  const tx = a.transactionId ? emu.table(transactions).get(a.transactionId) : undefined;
  const platformCustomerId = emu.table(customers).get(a.customerId)?.platformCustomerId;
  return {
    id: a.id,
    agentId: a.agentId,
    customerId: a.customerId,
    platformCustomerId: typeof platformCustomerId === 'string' ? platformCustomerId : '',
    status: a.status,
    type: a.type,
    ...(quote ? { quote: renderQuote(emu, quote) } : {}),
    ...(a.transferDetails ? { transferDetails: a.transferDetails } : {}),
    ...(tx ? { transaction: renderTransaction(tx) } : {}),
    ...(a.rejectionReason ? { rejectionReason: a.rejectionReason } : {}),
    createdAt: a.createdAt,
    updatedAt: a.updatedAt,
  };
}

type ActionInit = Pick<ActionRec, 'type' | 'quoteId' | 'transferBody' | 'transferDetails' | 'transactionId'>;

function insertAction(emu: EmulatorContext, agent: AgentRec, status: ActionStatus, init: ActionInit): ActionRec {
  const now = emu.iso();
  const id = newId('AgentAction');
  return emu.table(agentActions).set(id, {
    id,
    agentId: agent.id,
    customerId: agent.customerId,
    status,
    ...init,
    createdAt: now,
    updatedAt: now,
  });
}

/** Records a pending action and announces it (`AGENT_ACTION.PENDING_APPROVAL`). */
export function pendingAction(emu: EmulatorContext, agent: AgentRec, init: ActionInit): ActionRec {
  const action = insertAction(emu, agent, 'PENDING_APPROVAL', init);
  emu.outbox.emit('AGENT_ACTION.PENDING_APPROVAL', renderAction(emu, action));
  return action;
}

/** Records an operation the policy let run at once: APPROVED, with its transaction (no event: nothing waits). */
export function approvedAction(emu: EmulatorContext, agent: AgentRec, init: ActionInit): ActionRec {
  return insertAction(emu, agent, 'APPROVED', init);
}

export function requireAction(emu: EmulatorContext, id: string, agentId?: string): ActionRec {
  const action = emu.table(agentActions).get(id);
  if (!action || (agentId && action.agentId !== agentId)) throw notFound('AgentAction', id);
  return action;
}

/** The agent's own actions, newest first, paged (`GET /agents/me/actions[/{id}]`). */
export const myActionRoutes: Route[] = [
  {
    method: 'GET',
    path: '/agents/me/actions',
    permission: 'VIEW',
    handler(req, emu) {
      const agent = me(req, emu);
      // The operation declares no 400: a cursor the emulator did not return is the first page, and
      // a status no action has (any string the AgentActionStatus enum lacks) simply matches none.
      const page = lenientPage(req.query);
      const status = req.query.get('status');
      const rows = emu
        .table(agentActions)
        .where(actionsByAgent, agent.id)
        .filter((a) => status === null || a.status === status)
        .reverse();
      return {
        status: 200,
        body: pageOf(
          rows.map((a) => renderAction(emu, a)),
          page,
        ),
      };
    },
  },
  {
    method: 'GET',
    path: '/agents/me/actions/:actionId',
    permission: 'VIEW',
    handler: (req, emu) => ({
      status: 200,
      body: renderAction(emu, requireAction(emu, req.params.actionId!, me(req, emu).id)),
    }),
  },
];
