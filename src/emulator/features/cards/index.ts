/**
 * Cards (cards.ts, routes.ts) and reveal links (reveal.ts). A card still PROCESSING when the
 * emulator stopped gets its issuer decision after a restart.
 */
import { defineFeature } from '../../kernel/feature.js';
import type { Fixtures } from '../../kernel/fixtures.js';
import { customers } from '../customers/customers.js';
import { cards, insertCard, scheduleIssuance } from './cards.js';
import { reveals, revealRoutes } from './reveal.js';
import { cardRoutes } from './routes.js';

export const cardsFeature = defineFeature({
  name: 'cards',
  routes: [...cardRoutes, ...revealRoutes],
  tables: [cards, reveals],
  resume(emu) {
    for (const card of emu.table(cards).values()) if (card.state === 'PROCESSING') scheduleIssuance(emu, card);
  },
  sweep(emu, now) {
    emu.table(reveals).deleteWhere((r) => r.expiresAtMs <= now);
  },
  fixtureKeys: ['cardId'],
  fixtures(emu, made: Partial<Fixtures<'cardId' | 'customerId' | 'accountId'>>) {
    const existing = made.cardId ? emu.table(cards).get(made.cardId) : undefined;
    if (existing && existing.cardholderId === made.customerId) return {};
    const holder = emu.table(customers).get(made.customerId!)!;
    return { cardId: insertCard(emu, holder, [made.accountId!], 'ACTIVE').id };
  },
});
