/** The cards area's options: how and how fast the issuer decides a new card, how long a reveal link lives. */
import { count, oneOf, type AreaOptions } from '../../kernel/option.js';

const ISSUANCE = ['accept', 'reject'] as const;

export interface CardsOptions {
  /** How the issuer decides new cards (default 'accept'); a cardholder fullName ending in 004 is always rejected. */
  cardIssuance?: 'accept' | 'reject';
  /** Delay before the issuer decides a PROCESSING card (default 1000 ms). */
  cardIssuanceDelayMs?: number;
  /** Lifetime of a panEmbedUrl (default 60 s). */
  revealTtlSeconds?: number;
}

export interface CardsResolved {
  cardIssuance: 'accept' | 'reject';
  cardIssuanceDelayMs: number;
  revealTtlMs: number;
}

export const cardsOptions = {
  flags: {
    cardIssuance: {
      syntax: '--card-issuance <outcome>',
      description: 'how the issuer decides new cards: accept or reject',
      default: 'accept',
      choices: ISSUANCE,
      parse: oneOf(ISSUANCE),
    },
  },
  resolve: (o) => ({
    cardIssuance: o.cardIssuance ?? 'accept',
    cardIssuanceDelayMs: count(o.cardIssuanceDelayMs, 1000, 'cardIssuanceDelayMs'),
    revealTtlMs: count(o.revealTtlSeconds, 60, 'revealTtlSeconds', 1) * 1000,
  }),
} satisfies AreaOptions<CardsOptions, CardsResolved>;
