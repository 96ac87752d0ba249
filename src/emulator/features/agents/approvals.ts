/**
 * The platform's side of agent actions (Basic only): `GET /agents/approvals` lists the pending
 * ones (by agent, customer and creation time, newest first unless sortOrder=asc, paged); approve runs the kept operation with the money area's code (the spending limits are
 * judged again: money may have moved since), reject drops it with an optional reason.
 */
import { parseDateTime } from '../../../date-time.js';
import type { EmulatorContext } from '../../kernel/context.js';
import { HttpError, conflict } from '../../kernel/errors.js';
import { Fields } from '../../kernel/fields.js';
import { pageOf, readPage } from '../../kernel/paging.js';
import { idPattern } from '../../../service/identifiers.js';
import type { Req, Route } from '../../kernel/router.js';
import { executeNow } from '../quotes/execute.js';
import { requireQuote } from '../quotes/quotes.js';
import { agentActions, renderAction, requireAction, type ActionRec } from './actions.js';
import { getAgent, type AgentRec } from './agents.js';
import { judgeSpend } from './enforce.js';
import { agentRequest, areaRoute, runAs, tagTransaction } from './run.js';

/** A date-time filter (inclusive), as epoch ms. */
function at(f: Fields, name: string): number | undefined {
  const text = f.string(name);
  return text === undefined ? undefined : parseDateTime(text);
}

function pending(emu: EmulatorContext, req: Req): { agent: AgentRec; action: ActionRec } {
  const agent = getAgent(emu, req.params.agentId!);
  const action = requireAction(emu, req.params.actionId!, agent.id);
  if (action.status !== 'PENDING_APPROVAL')
    throw conflict('CONFLICT', `${action.id} is ${action.status}, not PENDING_APPROVAL`);
  return { agent, action };
}

/** Runs an approved action; a refusal of the operation leaves the action FAILED with the reason. */
async function run(emu: EmulatorContext, req: Req, agent: AgentRec, action: ActionRec): Promise<void> {
  try {
    if (action.type === 'EXECUTE_QUOTE') {
      const quote = requireQuote(emu, action.quoteId!);
      const ids = [quote.sourceAccountId, quote.destinationKind === 'UMA' ? undefined : quote.destinationId].filter(
        (id): id is string => id !== undefined,
      );
      judgeSpend(emu, agent, { amount: quote.totalSendingAmount, currency: quote.sendingCurrency, accountIds: ids });
      tagTransaction(emu, agent, executeNow(emu, quote));
      action.transactionId = quote.transactionId;
    } else {
      const d = action.transferDetails!;
      judgeSpend(emu, agent, {
        amount: d.amount,
        currency: d.currency,
        accountIds: [d.sourceAccountId, d.destinationAccountId],
      });
      const path = action.type === 'TRANSFER_OUT' ? '/transfer-out' : '/transfer-in';
      const reply = await runAs(
        emu,
        agent,
        agentRequest(req, agent, path, action.transferBody!),
        areaRoute('POST', path).handler,
      );
      action.transactionId = (reply.body as { id: string }).id;
    }
    action.status = 'APPROVED';
  } catch (error) {
    if (!(error instanceof HttpError)) throw error;
    action.status = 'FAILED';
    action.rejectionReason = `${error.code}: ${error.message}`;
  }
}

function decide(verb: 'approve' | 'reject'): Route {
  return {
    method: 'POST',
    path: `/agents/:agentId/actions/:actionId/${verb}`,
    permission: 'MANAGE',
    basicOnly: true,
    async handler(req, emu) {
      const f = new Fields(req.raw.length > 0 ? req.json() : {});
      const reason = verb === 'reject' ? f.string('reason', { minLength: 1, maxLength: 500 }) : undefined;
      f.done();
      const { agent, action } = pending(emu, req);
      if (verb === 'approve') await run(emu, req, agent, action);
      else {
        action.status = 'REJECTED';
        action.rejectionReason = reason ?? 'Rejected by the platform';
      }
      action.updatedAt = emu.iso();
      emu.changed();
      return { status: 200, body: renderAction(emu, action) };
    },
  };
}

export const approvalRoutes: Route[] = [
  {
    method: 'GET',
    path: '/agents/approvals',
    permission: 'VIEW',
    basicOnly: true,
    handler(req, emu) {
      const f = new Fields(Object.fromEntries(req.query));
      const agentId = f.string('agentId', { pattern: idPattern('Agent') });
      const customerId = f.string('customerId', { pattern: idPattern('Customer') });
      // The dates' format and sortOrder's enum are the description's, checked before this runs.
      const start = at(f, 'startDate');
      const finish = at(f, 'endDate');
      const sortOrder = f.string('sortOrder') ?? 'desc';
      const page = readPage(f);
      f.done();
      const rows = emu.table(agentActions).filter((a) => {
        const created = Date.parse(a.createdAt);
        return (
          a.status === 'PENDING_APPROVAL' &&
          (!agentId || a.agentId === agentId) &&
          (!customerId || a.customerId === customerId) &&
          (start === undefined || created >= start) &&
          (finish === undefined || created <= finish)
        );
      });
      // The table keeps creation order: the description's default is newest first.
      if (sortOrder === 'desc') rows.reverse();
      return {
        status: 200,
        body: pageOf(
          rows.map((a) => renderAction(emu, a)),
          page,
        ),
      };
    },
  },
  decide('approve'),
  decide('reject'),
];
