/**
 * The emulator's durable state: everything a restart with --state must keep (credentials and keys,
 * customers, accounts and balances, sessions, cards, quotes, transactions, webhook config and the
 * undelivered webhook outbox). Short-lived things (pending challenges, OTP targets, reveal links)
 * live in memory only: after a restart a client simply starts that flow again.
 */
import { randomBytes, randomUUID } from 'node:crypto';
import { generateKeyPair } from '../crypto/keys.js';
import { generateWebhookKeyPair } from '../crypto/webhook-signature.js';

export type KycStatus = 'PENDING' | 'REJECTED' | 'UNVERIFIED' | 'APPROVED';
export type AuthMethodType = 'OAUTH' | 'EMAIL_OTP' | 'SMS_OTP' | 'PASSKEY';
export type CardState = 'PROCESSING' | 'ACTIVE' | 'FROZEN' | 'CLOSED';

export interface CustomerRec {
  id: string;
  customerType: 'INDIVIDUAL' | 'BUSINESS';
  fullName?: string;
  birthDate?: string;
  nationality?: string;
  email?: string;
  idType?: string;
  identifier?: string;
  address?: Record<string, string>;
  businessInfo?: Record<string, string>;
  kycStatus?: KycStatus;
  kybStatus?: 'UNVERIFIED' | 'REJECTED' | 'APPROVED';
  umaAddress: string;
  platformCustomerId?: string;
  createdAt: string;
  updatedAt: string;
}

export interface AccountRec {
  id: string;
  customerId: string;
  /** The wallet's key-management sub-organization: the organizationId of its payloadToSign. */
  organizationId: string;
  type: 'EMBEDDED_WALLET';
  status: 'ACTIVE';
  currency: string;
  balance: number;
  createdAt: string;
  updatedAt: string;
}

export interface AuthMethodRec {
  id: string;
  accountId: string;
  type: AuthMethodType;
  nickname: string;
  createdAt: string;
  updatedAt: string;
  /** PASSKEY only: the registered WebAuthn credential. */
  passkey?: { credentialId: string; publicKey: string; signCount: number };
}

export interface SessionRec {
  id: string;
  accountId: string;
  authMethodId: string;
  type: AuthMethodType;
  nickname: string;
  /** Compressed SEC1 hex of the session's API key: stamps made by it authorize wallet actions. */
  publicKey: string;
  /** PASSKEY sessions: the WebAuthn credential id (AuthSession.credentialId). */
  credentialId?: string;
  createdAt: string;
  updatedAt: string;
  expiresAtMs: number;
  revokedAtMs?: number;
}

export interface CardRec {
  id: string;
  cardholderId: string;
  state: CardState;
  stateReason?: 'ISSUER_REJECTED' | 'CLOSED_BY_PLATFORM';
  brand: string;
  form: string;
  last4: string;
  expMonth: number;
  expYear: number;
  fundingSources: string[];
  currency: string;
  processorRef: string;
  issuerRef: string;
  createdAt: string;
  updatedAt: string;
  /** Secret: only ever shown on the one-use reveal page. */
  pan: string;
  cvc: string;
  /** How the issuer will decide a PROCESSING card (fixed at creation so a restart keeps it). */
  issuance: 'accept' | 'reject';
}

export interface QuoteRec {
  id: string;
  /** PENDING until paid; then as the payment went (a UMA magic destination steers it). */
  status: 'PENDING' | 'PROCESSING' | 'COMPLETED' | 'FAILED';
  body: Record<string, unknown>;
  sendingCurrency: string;
  totalSendingAmount: number;
  receivingCurrency: string;
  totalReceivingAmount: number;
  destinationAccountId?: string;
  destinationUmaAddress?: string;
  expiresAtMs: number;
  transactionId?: string;
}

export interface WebhookDelivery {
  /** Unique per queued copy (duplicates share `id` but not `key`). */
  key: string;
  id: string;
  type: string;
  /** The exact bytes sent and signed, frozen when the event happened. */
  body: string;
  attempts: number;
  nextAttemptAtMs: number;
}

/** What start-up prints and tests build on (see fixtures.ts); kept in the state so a restart keeps them. */
export interface EmulatorFixtures {
  accountId: string;
  credentialId: string;
  email: string;
  customerId: string;
  cardId: string;
  quoteId: string;
  umaAddress: string;
}

export interface EmulatorState {
  version: 1;
  apiTokenId: string;
  apiClientSecret: string;
  webhookPrivateKeyPem: string;
  webhookPublicKeyPem: string;
  otpSignerPrivateKey: string;
  /** Uncompressed hex (what clients pin). */
  otpSignerPublicKey: string;
  fixtures?: EmulatorFixtures;
  config: { webhookEndpoint?: string };
  customers: Map<string, CustomerRec>;
  accounts: Map<string, AccountRec>;
  authMethods: Map<string, AuthMethodRec>;
  sessions: Map<string, SessionRec>;
  cards: Map<string, CardRec>;
  quotes: Map<string, QuoteRec>;
  transactions: Map<string, Record<string, unknown>>;
  outbox: WebhookDelivery[];
}

const MAP_KEYS = ['customers', 'accounts', 'authMethods', 'sessions', 'cards', 'quotes', 'transactions'] as const;

/** Fresh credentials and keys: stable for the life of a state file. */
export function createInitialState(): EmulatorState {
  const webhook = generateWebhookKeyPair();
  const signer = generateKeyPair({ uncompressed: true });
  return {
    version: 1,
    apiTokenId: `emu_${randomUUID().replace(/-/g, '').slice(0, 16)}`,
    apiClientSecret: `emusk_${randomBytes(24).toString('base64url')}`,
    webhookPrivateKeyPem: webhook.privateKeyPem,
    webhookPublicKeyPem: webhook.publicKeyPem,
    otpSignerPrivateKey: signer.privateKey,
    otpSignerPublicKey: signer.publicKey,
    config: {},
    customers: new Map(),
    accounts: new Map(),
    authMethods: new Map(),
    sessions: new Map(),
    cards: new Map(),
    quotes: new Map(),
    transactions: new Map(),
    outbox: [],
  };
}

export function serializeState(state: EmulatorState): string {
  const out: Record<string, unknown> = { ...state };
  for (const key of MAP_KEYS) out[key] = Object.fromEntries(state[key]);
  return JSON.stringify(out);
}

/** Parses a state file's text; throws with a plain message when it is not ours. */
export function deserializeState(text: string): EmulatorState {
  let raw: Record<string, unknown>;
  try {
    raw = JSON.parse(text) as Record<string, unknown>;
  } catch {
    // Not the parser's message: it quotes the text around the bad token, and this file holds secrets.
    throw new Error('not valid JSON');
  }
  if (!raw || typeof raw !== 'object' || raw.version !== 1) throw new Error('not an svc emulator state file (version 1)');
  for (const field of ['apiTokenId', 'apiClientSecret', 'webhookPrivateKeyPem', 'webhookPublicKeyPem', 'otpSignerPrivateKey', 'otpSignerPublicKey']) {
    if (typeof raw[field] !== 'string') throw new Error(`state file lacks ${field}`);
  }
  const state = { ...raw } as unknown as EmulatorState;
  for (const key of MAP_KEYS) {
    const value = raw[key];
    (state as unknown as Record<string, unknown>)[key] = new Map(Object.entries(value && typeof value === 'object' ? value : {}));
  }
  state.config = (raw.config as EmulatorState['config']) ?? {};
  state.outbox = Array.isArray(raw.outbox) ? (raw.outbox as WebhookDelivery[]) : [];
  return state;
}
