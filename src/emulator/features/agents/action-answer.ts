/**
 * What a spending operation answers at `/agents/me/…`: always the AgentAction, with the status the
 * description declares (execute 200, transfer-in/out 201). Pending approval is the action's own
 * state (`PENDING_APPROVAL`, no transaction yet); an operation the policy let run is an `APPROVED`
 * action carrying its transaction. Errors and a signed-retry challenge (202 payloadToSign) pass
 * through as the area answered them. The area's own paths keep the area's answers.
 */
import type { EmulatorContext } from '../../kernel/context.js';
import type { Reply } from '../../kernel/router.js';
import { transactions, type TxRec } from '../transactions/transactions.js';
import { agentActions, approvedAction, renderAction, type ActionType } from './actions.js';
import type { AgentRec } from './agents.js';

export interface ActionAnswer {
  type: ActionType;
  status: 200 | 201;
}

/** The transaction a reply made: a transaction itself, or a quote that names one. */
function madeTransaction(emu: EmulatorContext, body: Record<string, unknown>): TxRec | undefined {
  const id = typeof body.transactionId === 'string' ? body.transactionId : body.id;
  return typeof id === 'string' && id.startsWith('Transaction:') ? emu.table(transactions).get(id) : undefined;
}

function transferDetails(tx: TxRec) {
  const side = (name: 'source' | 'destination') => (tx.fields[name] as { accountId?: string } | undefined)?.accountId;
  const sent = tx.fields.sentAmount as { amount: number; currency: { code: string } };
  return {
    amount: sent.amount,
    currency: sent.currency.code,
    sourceAccountId: side('source')!,
    destinationAccountId: side('destination')!,
  };
}

/** The action an operation held for approval names in its 403 (me-routes.ts pendingReply). */
function heldAction(emu: EmulatorContext, reply: Reply) {
  const id = (reply.body as { details?: { actionId?: unknown } } | undefined)?.details?.actionId;
  return reply.status === 403 && typeof id === 'string' ? emu.table(agentActions).get(id) : undefined;
}

export function actionReply(emu: EmulatorContext, agent: AgentRec, answer: ActionAnswer, reply: Reply): Reply {
  const held = heldAction(emu, reply);
  if (held) return { status: answer.status, body: renderAction(emu, held) };
  const body = reply.body as Record<string, unknown> | undefined;
  if (reply.status < 200 || reply.status >= 300 || !body) return reply;
  const tx = madeTransaction(emu, body);
  if (!tx) return reply; // a signed-retry challenge: the signed retry answers the action
  // A repeat (Idempotency-Key, or a settled signed retry re-sent) answers the action it made before.
  const action =
    emu.table(agentActions).find((a) => a.agentId === agent.id && a.transactionId === tx.id) ??
    approvedAction(emu, agent, {
      type: answer.type,
      transactionId: tx.id,
      ...(answer.type === 'EXECUTE_QUOTE' ? { quoteId: body.id as string } : { transferDetails: transferDetails(tx) }),
    });
  return { ...reply, status: answer.status, body: renderAction(emu, action) };
}
