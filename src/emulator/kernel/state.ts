/**
 * The kernel's part of the durable state: credentials and keys, the webhook endpoint, the fixture
 * ids and the undelivered webhook outbox. Areas keep their records in their own durable tables
 * (tables.ts); the state file holds both, the tables at the top level under their names, so a
 * restart with --state keeps everything. Short-lived things live in memory tables only: after a
 * restart a client simply starts that flow again.
 */
import { randomBytes, randomUUID } from 'node:crypto';
import { generateKeyPair } from '../../crypto/keys.js';
import { generateWebhookKeyPair } from '../../crypto/webhook-signature.js';
import type { Fixtures } from './fixtures.js';
import { firstBadRecord } from './record-shape.js';
import type { TableSet } from './tables.js';

export interface WebhookDelivery {
  /** Unique per queued copy (duplicates share `id` but not `key`). */
  key: string;
  id: string;
  type: string;
  /** The exact bytes sent and signed, frozen when the event happened. */
  body: string;
  attempts: number;
  nextAttemptAtMs: number;
  /** A replay's own target (`--to`); otherwise the configured endpoint at each attempt. */
  endpoint?: string;
  /** Answers besides 2xx and 409 that end the delivery (an approval's 403 and 422 are decisions, not failures). */
  accepts?: number[];
}

export interface CoreState {
  version: 1;
  apiTokenId: string;
  apiClientSecret: string;
  webhookPrivateKeyPem: string;
  webhookPublicKeyPem: string;
  otpSignerPrivateKey: string;
  /** Uncompressed hex (what clients pin). */
  otpSignerPublicKey: string;
  /** The start-up fixture ids (kernel/fixtures.ts). */
  fixtures?: Fixtures;
  /**
   * `id`: the platform's own id (PlatformConfig:<uuid>), made on first use (features/platform/platform-id.ts);
   * `settings`: the other fields PATCH /config was last given (features/platform/webhook-config.ts).
   */
  config: { id?: string; webhookEndpoint?: string; settings?: Record<string, unknown> };
  outbox: WebhookDelivery[];
}

const REQUIRED_SECRETS = [
  'apiTokenId',
  'apiClientSecret',
  'webhookPrivateKeyPem',
  'webhookPublicKeyPem',
  'otpSignerPrivateKey',
  'otpSignerPublicKey',
] as const;

/** Top-level keys of the state file that are not tables. */
export const CORE_KEYS = ['version', ...REQUIRED_SECRETS, 'fixtures', 'config', 'outbox'] as const;

/** Fresh credentials and keys: stable for the life of a state file. */
export function createCoreState(): CoreState {
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
    outbox: [],
  };
}

export function serializeState(core: CoreState, tables: TableSet): string {
  const out: Record<string, unknown> = { ...core };
  for (const [name, table] of tables.durable()) out[name] = table;
  return JSON.stringify(out);
}

/**
 * Parses a state file's text into the core state and fills the registered tables; throws with a
 * plain message when it is not ours. A table the file lacks starts empty.
 */
export function deserializeState(text: string, tables: TableSet): CoreState {
  let raw: Record<string, unknown>;
  try {
    raw = JSON.parse(text) as Record<string, unknown>;
  } catch (error) {
    // Not the parser's message: it quotes the text around the bad token, and this file holds secrets.
    throw new Error(`not valid JSON${where(text, (error as Error).message)}`);
  }
  if (!raw || typeof raw !== 'object' || raw.version !== 1)
    throw new Error('not an svc emulator state file (version 1)');
  for (const field of REQUIRED_SECRETS) {
    if (typeof raw[field] !== 'string') throw new Error(`state file lacks ${field}`);
  }
  // Every table is checked before any is loaded: a bad record is refused, never served.
  for (const name of tables.durable().keys()) {
    const bad =
      raw[name] === undefined
        ? undefined
        : firstBadRecord(name, raw[name], tables.shapeOf(name), tables.earlierOf(name));
    if (bad) throw new Error(`the record at ${bad.path} ${bad.problem}`);
  }
  for (const [name, table] of tables.durable()) {
    const rows = raw[name];
    if (rows !== undefined) table.load(rows as Record<string, never>);
  }
  const core = Object.fromEntries(CORE_KEYS.map((key) => [key, raw[key]])) as unknown as CoreState;
  core.config = (raw.config as CoreState['config']) ?? {};
  core.outbox = Array.isArray(raw.outbox) ? (raw.outbox as WebhookDelivery[]) : [];
  if (core.fixtures === undefined) delete core.fixtures;
  return core;
}

/** " at line L, column C" of the parser's error position (never the text there), or "" when it gives none. */
function where(text: string, parserMessage: string): string {
  const at = /position (\d+)/.exec(parserMessage);
  if (!at) return text.trim() === '' ? ' (the file is empty)' : '';
  const before = text.slice(0, Number(at[1]));
  const line = before.split('\n').length;
  return ` at line ${line}, column ${before.length - before.lastIndexOf('\n')}`;
}
