/**
 * Agent bearer credentials are bound to the agent's customer (spec "Authentication" 2), on every
 * endpoint. Rather than every area checking the caller, the kernel does it once, generically:
 * - before the handler, every identifier in the path, the query and a JSON body (nested too:
 *   `source.accountId`, `fundingSources[]`) — `Customer:<uuid>`, `InternalAccount:<uuid>`,
 *   `Card:<uuid>`… — that belongs to another customer is answered as an unknown one would be: 404;
 * - after it, list answers (`{data: […]}`) drop the items of other customers.
 * Who owns a record is read from the record itself, found by id in any area's table: a customer
 * is its own owner; anything else is owned by the customer its `customerId`, `cardholderId`,
 * `documentHolder` or `accountId` leads to (a beneficial owner's document → the owner → its business),
 * also inside `source`, `destination` and `fields` (quotes, transactions). So a new area's resources are scoped without the area doing anything, as
 * long as its records name their owner in one of those fields.
 */
import { ANY_ID_PATTERN } from '../../service/identifiers.js';
import type { Principal } from './auth.js';
import type { EmulatorContext } from './context.js';
import { HttpError } from './errors.js';
import type { Reply, Req } from './router.js';

const ID = ANY_ID_PATTERN;
/** Fields that name a record's owner: a customer id, or the id of something a customer owns. */
const OWNER_FIELDS = [
  'customerId',
  'cardholderId',
  'documentHolder',
  'accountId',
  'sourceAccountId',
  'internalAccountId',
] as const;

type Agent = Extract<Principal, { kind: 'agent' }>;

/** The customer that owns a record (undefined: nobody's in particular, or not known). */
function ownerOfRecord(emu: EmulatorContext, record: unknown, depth = 0): string | undefined {
  if (typeof record !== 'object' || record === null || depth > 3) return undefined;
  const r = record as Record<string, unknown>;
  if (typeof r.id === 'string' && r.id.startsWith('Customer:')) return r.id;
  for (const field of OWNER_FIELDS) {
    const value = r[field];
    const owner = typeof value === 'string' && ID.test(value) ? ownerOfId(emu, value, depth + 1) : undefined;
    if (owner) return owner;
  }
  // Nested: a quote's source and destination, a transaction's rendered fields.
  for (const nested of ['source', 'destination', 'fields']) {
    const owner = ownerOfRecord(emu, r[nested], depth + 1);
    if (owner) return owner;
  }
  return undefined;
}

function ownerOfId(emu: EmulatorContext, id: string, depth = 0): string | undefined {
  if (id.startsWith('Customer:')) return id;
  return ownerOfRecord(emu, emu.lookup(id), depth);
}

function hidden(id: string): HttpError {
  const kind = ID.exec(id)?.[1] ?? 'Resource';
  return new HttpError(404, kind === 'Customer' ? 'USER_NOT_FOUND' : 'REFERENCE_NOT_FOUND', `${kind} ${id} not found`);
}

/** Every string in a JSON value, a few levels deep (a quote's `source.accountId`, `fundingSources[]`). */
function strings(value: unknown, out: unknown[], depth = 0): void {
  if (typeof value === 'string') out.push(value);
  else if (depth < 4 && value !== null && typeof value === 'object') {
    for (const item of Array.isArray(value) ? value : Object.values(value)) strings(item, out, depth + 1);
  }
}

/** The JSON body, or undefined when there is none or it does not parse (the handler answers that 400). */
function jsonBody(req: Req): unknown {
  if (req.raw.length === 0 || !/json/i.test(req.header('content-type') ?? '')) return undefined;
  try {
    return JSON.parse(req.raw.toString('utf8')) as unknown;
  } catch {
    return undefined;
  }
}

function idsOf(req: Req): string[] {
  const values: unknown[] = [...Object.values(req.params), ...req.query.values()];
  // Only the parse may fail quietly: an error while scanning must surface, never leave ids unchecked.
  strings(jsonBody(req), values);
  return values.filter((v): v is string => typeof v === 'string' && ID.test(v));
}

/** Throws 404 when the request names another customer's resource. */
export function checkAgentRequest(emu: EmulatorContext, req: Req): void {
  checkAgentIds(emu, req, idsOf(req));
}

/**
 * The same check for ids the kernel cannot read before the handler (a multipart form's fields):
 * the area calls it once it has parsed them. Nothing to check for the platform.
 */
export function checkAgentIds(emu: EmulatorContext, req: Req, ids: readonly string[]): void {
  if (req.principal.kind !== 'agent') return;
  const agent = req.principal;
  for (const id of ids) {
    const owner = ownerOfId(emu, id);
    if (owner !== undefined && owner !== agent.customerId) throw hidden(id);
  }
}

/**
 * Whether the caller may see a record (the platform: every one). A paged list filters with it
 * before paging, so an agent's pages are full, and hasMore, nextCursor and totalCount count only
 * its own items (the after-the-fact filter below cannot fix those).
 */
export function callerSees(emu: EmulatorContext, req: Req): (record: unknown) => boolean {
  if (req.principal.kind !== 'agent') return () => true;
  const customerId = req.principal.customerId;
  return (record) => {
    const owner = ownerOfRecord(emu, record);
    return owner === undefined || owner === customerId;
  };
}

/** Drops other customers' items from a list answer. */
export function scopeAgentReply(emu: EmulatorContext, req: Req, reply: Reply): Reply {
  const body = reply.body as { data?: unknown } | undefined;
  if (!body || !Array.isArray(body.data)) return reply;
  const agent = req.principal as Agent;
  const data = body.data.filter((item) => {
    const owner = ownerOfRecord(emu, item);
    return owner === undefined || owner === agent.customerId;
  });
  return { ...reply, body: { ...body, data } };
}
