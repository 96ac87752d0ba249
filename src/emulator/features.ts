/**
 * Every area of the emulator, one line each. Order matters twice: routes are matched in this order,
 * and each area's fixtures see the ids of the areas above it (a card needs the customer and account),
 * which is also the order start-up prints them in. The types of `RunningEmulator.fixtures` and
 * `.testing` are built from this list.
 */
import type { AnyFeature, FixtureKeysOf, TestHooksOf } from './kernel/feature.js';
import type { Fixtures } from './kernel/fixtures.js';
import { signedRetry } from './signed-retry/index.js';
import { accountsFeature } from './features/accounts/index.js';
import { externalAccountsFeature } from './features/external-accounts/index.js';
import { customersFeature } from './features/customers/index.js';
import { bulkCustomersFeature } from './features/bulk-customers/index.js';
import { contactVerificationFeature } from './features/contact-verification/index.js';
import { scaFeature } from './features/sca/index.js';
import { beneficialOwnersFeature } from './features/beneficial-owners/index.js';
import { documentsFeature } from './features/documents/index.js';
import { verificationsFeature } from './features/verifications/index.js';
import { authFeature } from './features/auth/index.js';
import { sessionsFeature } from './features/sessions/index.js';
import { delegatedKeysFeature } from './features/delegated-keys/index.js';
import { cardsFeature } from './features/cards/index.js';
import { cardTransactionsFeature } from './features/card-transactions/index.js';
import { quotesFeature } from './features/quotes/index.js';
import { receiverFeature } from './features/receiver/index.js';
import { exchangeRatesFeature } from './features/exchange-rates/index.js';
import { transactionsFeature } from './features/transactions/index.js';
import { transfersFeature } from './features/transfers/index.js';
import { paymentsFeature } from './features/payments/index.js';
import { platformFeature } from './features/platform/index.js';
import { tokensFeature } from './features/tokens/index.js';
import { directoriesFeature } from './features/directories/index.js';
import { endUserTermsFeature } from './features/end-user-terms/index.js';
import { cryptoFeature } from './features/crypto/index.js';
import { agentsFeature } from './features/agents/index.js';
import { invitationsFeature } from './features/invitations/index.js';
import { stablecoinsFeature } from './features/stablecoins/index.js';
import { webhookEventsFeature } from './features/webhook-events/index.js';

const AREAS = [
  signedRetry,
  accountsFeature,
  // Before the money areas: its gates answer an agent's calls of their paths first (agents/me-routes.ts).
  agentsFeature,
  externalAccountsFeature,
  customersFeature,
  bulkCustomersFeature,
  contactVerificationFeature,
  scaFeature,
  beneficialOwnersFeature,
  documentsFeature,
  verificationsFeature,
  authFeature,
  sessionsFeature,
  delegatedKeysFeature,
  cardsFeature,
  cardTransactionsFeature,
  exchangeRatesFeature,
  quotesFeature,
  receiverFeature,
  transfersFeature,
  transactionsFeature,
  paymentsFeature,
  platformFeature,
  tokensFeature,
  directoriesFeature,
  endUserTermsFeature,
  cryptoFeature,
  invitationsFeature,
  stablecoinsFeature,
  webhookEventsFeature,
] as const;

export const FEATURES: readonly AnyFeature[] = AREAS;

type Area = (typeof AREAS)[number];

/** What start-up prints and tests build on: every area's fixture ids (their `fixtureKeys`). */
export type EmulatorFixtures = Fixtures<FixtureKeysOf<Area>>;
/** Every area's test hooks (their `testing`), merged into `emulator.testing`. */
export type AreaTestHooks = TestHooksOf<Area>;
