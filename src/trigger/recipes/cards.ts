/**
 * card.*: an approved cardholder, a card funded from its USD account, issuance followed to its end,
 * then the move the scenario is about (freeze, unfreeze, close, new funding sources).
 */
import { ApiError } from '../../errors.js';
import type { Scenario } from '../catalog.js';
import { call, field, pick, poll, type Body, type TriggerContext } from '../context.js';
import { accountIn, createIndividual, customerAccounts, usdAccount } from './customers.js';

/** Issuance is about a second on the emulator; the remote sandbox is given a minute. */
const ISSUANCE_BUDGET_MS = 60_000;
export const APPROVED_HOLDER = 'Carla Cardholder';

/** A virtual card for the scenario's customer, funded from its USD account: POST /cards (PROCESSING). */
export async function issueCard(ctx: TriggerContext): Promise<{ issued: Body; cardPath: string }> {
  ctx.progress('Issuing a virtual card');
  const issued = await call(ctx, 'POST', '/cards', {
    cardholderId: ctx.resources.customerId,
    fundingSources: [ctx.resources.accountId],
    form: 'VIRTUAL',
    currency: 'USD',
  });
  const cardPath = `/cards/${field(issued, 'id', 'POST /cards')}`;
  ctx.resources.cardId = issued.id as string;
  return { issued, cardPath };
}

/** Follows issuance to the issuer's answer. */
export function waitForIssuer(ctx: TriggerContext, cardPath: string): Promise<Body> {
  ctx.progress('Waiting for the issuer');
  return poll(
    ctx,
    () => call(ctx, 'GET', cardPath),
    (c) => c.state !== 'PROCESSING',
    ISSUANCE_BUDGET_MS,
  );
}

/** Refuses to go on with a card the issuer did not make ACTIVE. */
export function requireActive(card: Body, cardPath: string, scenario: Scenario): void {
  if (card.state !== 'ACTIVE') {
    throw new ApiError({
      status: 200,
      code: 'CARD_NOT_ACTIVE',
      message: `${cardPath.slice(7)} is ${String(card.state)}, so ${scenario.name} cannot go on`,
    });
  }
}

export async function card(ctx: TriggerContext, scenario: Scenario): Promise<Body> {
  const holderName = scenario.magic.field === 'cardholder fullName' ? scenario.magic.value : APPROVED_HOLDER;
  await createIndividual(ctx, holderName);
  await usdAccount(ctx);
  const { issued, cardPath } = await issueCard(ctx);

  const issuanceOnly = scenario.name === 'card.issued' || scenario.name === 'card.issuer-rejected';
  let current = issued;
  if (!issuanceOnly || ctx.wait) current = await waitForIssuer(ctx, cardPath);
  if (!issuanceOnly) requireActive(current, cardPath, scenario);
  const patch = (body: object) => call(ctx, 'PATCH', cardPath, body);
  switch (scenario.name) {
    case 'card.frozen':
      current = await patch({ state: 'FROZEN' });
      break;
    case 'card.unfrozen':
      await patch({ state: 'FROZEN' });
      current = await patch({ state: 'ACTIVE' });
      break;
    case 'card.closed':
      current = await patch({ state: 'CLOSED' });
      break;
    case 'card.funding-changed': {
      const accounts = await customerAccounts(ctx, ctx.resources.customerId!);
      const eur = accountIn(accounts, 'EUR') ?? accounts.find((a) => a.id !== ctx.resources.accountId);
      if (!eur)
        throw new ApiError({
          status: 200,
          code: 'INVALID_RESPONSE',
          message: 'the cardholder has no second internal account to switch the card to',
        });
      ctx.resources.newFundingSourceId = eur.id as string;
      current = await patch({ fundingSources: [eur.id] });
      break;
    }
  }
  return { status: current.state, ...pick(current, ['state', 'stateReason', 'fundingSources']) };
}
