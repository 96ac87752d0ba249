/**
 * The card-webhooks step: a receiver from src/webhook on a free port verifies every delivery with
 * the emulator's webhook key, PATCH /config points the service at it, then a new card is issued
 * (PROCESSING → ACTIVE), frozen and unfrozen, and each CARD.STATE_CHANGE is shown as it is verified.
 * Returns the card, which is live, for the reveal step.
 */
import type { DemoContext } from './context.js';
import type { Narrator } from './narrator.js';
import { EventInbox } from './event-inbox.js';
import { createWebhookReceiver } from '../../src/webhook/receiver.js';
import { openSeenIds } from '../../src/webhook/dedupe.js';
import { CardStates, describeEvent, STATE_CHANGE } from '../../src/webhook/render.js';
import { meaningText } from '../webhook/format.js';
import { createWebhookVerifier } from '../../src/crypto/webhook-signature.js';
import { pathId } from '../../src/sandbox/api.js';
import { UNSET_WEBHOOK_ENDPOINT_PATH } from '../../src/service/emulator-endpoints.js';

const EVENT_TIMEOUT_MS = 15_000;

export async function cardWebhooks(ctx: DemoContext, narrator: Narrator): Promise<string> {
  const { client, emulator } = ctx;
  const { fixtures } = emulator;
  const signal = ctx.deps.signal;
  const inbox = new EventInbox();
  const cards = new CardStates();
  const receiver = await createWebhookReceiver({
    host: '127.0.0.1',
    port: 0,
    path: '/webhooks',
    verify: createWebhookVerifier(emulator.webhookPublicKey),
    dedupe: openSeenIds(),
    onEvent: ({ event }) => inbox.push(event),
    onDuplicate: (event) => narrator.note(`duplicate delivery ${event.id} acknowledged and ignored`),
    onRejected: (r) => narrator.note(`rejected a delivery: ${r.reason}`),
  });
  try {
    narrator.note(`listening on ${receiver.url}`);
    await client.request({ method: 'PATCH', path: '/config', body: { webhookEndpoint: receiver.url }, signal });
    narrator.line(`Webhook endpoint set: PATCH /config {"webhookEndpoint":"${receiver.url}"}`);

    const issued = await client.request<{ id: string; state: string }>({
      method: 'POST',
      path: '/cards',
      body: {
        cardholderId: fixtures.customerId,
        fundingSources: [fixtures.accountId],
        form: 'VIRTUAL',
        currency: 'USD',
      },
      signal,
    });
    const cardId = issued.body.id;
    cards.remember(cardId, issued.body.state);
    narrator.line(`Issued ${cardId} (${issued.body.state}); waiting for the issuer's decision`);

    const expect = async (state: string) => {
      const event = await inbox.next(
        `${STATE_CHANGE} ${state} for ${cardId}`,
        (e) => e.type === STATE_CHANGE && e.data.id === cardId && e.data.state === state,
        EVENT_TIMEOUT_MS,
        signal,
      );
      const parts = describeEvent(event, cards);
      narrator.line(
        `  ✓ signature verified  ${parts.type}  ${parts.cardId} → ${parts.detail}  (${meaningText(parts)})`,
      );
    };
    await expect('ACTIVE');
    for (const state of ['FROZEN', 'ACTIVE']) {
      await client.request({ method: 'PATCH', path: `/cards/${pathId(cardId)}`, body: { state }, signal });
      narrator.line(`PATCH /cards/${cardId} {"state":"${state}"}`);
      await expect(state);
    }
    return cardId;
  } finally {
    // Unset first, so the emulator (still running under --keep) stops retrying a closed port.
    await client
      .request({ method: 'DELETE', path: UNSET_WEBHOOK_ENDPOINT_PATH, fromRoot: true })
      .catch(() => undefined);
    await receiver.close();
  }
}
