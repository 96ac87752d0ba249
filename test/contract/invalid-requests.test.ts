/**
 * The contract test's request side: for every operation of the API description, a minimal valid
 * request made from the description alone (instances.ts) passes the emulator's schema check, and
 * each invalid variant of it (one per rule class the operation has: a required field left out, a
 * wrong type, a value outside an enum, a broken format, pattern or length, a number out of range,
 * an item count, a required query parameter or header missing or out of bounds) is refused with
 * 400 INVALID_INPUT naming the field, and changes nothing: the --state file is the same bytes after.
 */
import { readFileSync, rmSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ALL_AGENT_PERMISSIONS } from '../integration/emulator/money/support.js';
import { STILL, type TestEmulator, testEmulator } from '../integration/emulator/support.js';
import { FACTS, flatten, type Operation, plan, type Planned } from './instances.js';
import { ContractValidator } from './validator.js';
import { tempDir } from '../helpers/temp-dir.js';

const ZERO = '00000000-0000-0000-0000-000000000000';
/** An identifier of the kind each path parameter names, so routes that take one kind of id are reached. */
const KINDS: Record<string, string> = {
  customerId: 'Customer',
  credentialId: 'AuthMethod',
  resetId: 'ScaReset',
  externalAccountId: 'ExternalAccount',
  beneficialOwnerId: 'BeneficialOwner',
  documentId: 'Document',
  verificationId: 'Verification',
  accountId: 'InternalAccount',
  quoteId: 'Quote',
  transactionId: 'Transaction',
  jobId: 'BulkCustomerImportJob',
  tokenId: 'Token',
  agentId: 'Agent',
  actionId: 'AgentAction',
  stablecoinId: 'Stablecoin',
  stablecoinOperationId: 'StablecoinOperation',
  stablecoinProviderAccountId: 'StablecoinProviderAccount',
};
const ID_KINDS: Record<string, string> = { 'internal-accounts': 'InternalAccount', cards: 'Card', sandbox: 'Card' };

function concrete(path: string): string {
  return path.replace(/\{([A-Za-z]+)\}/g, (_m, name: string) => {
    if (name === 'receiverUmaAddress') return encodeURIComponent('$nobody@uma.example');
    if (name === 'invitationCode' || name === 'code') return 'NOSUCHCODE';
    const head = path.split('/')[1]!;
    const kind =
      KINDS[name] ??
      (head === 'auth'
        ? path.includes('sessions')
          ? 'Session'
          : path.includes('delegated-keys')
            ? 'DelegatedKey'
            : 'AuthMethod'
        : ID_KINDS[head]);
    if (!kind) throw new Error(`no id kind for {${name}} in ${path}`);
    return encodeURIComponent(`${kind}:${ZERO}`);
  });
}

const url = (p: Planned, query: Record<string, string>) => {
  const q = new URLSearchParams(query).toString();
  return `${concrete(p.path)}${q ? `?${q}` : ''}`;
};

/** The emulator's schema refusal: every entry names its rule. */
const isSchemaRefusal = (body: any) =>
  body?.code === 'INVALID_INPUT' && body.details?.errors?.every((e: { rule?: unknown }) => typeof e.rule === 'string');

const planned = Object.entries(FACTS.operations).map(([key, op]) => plan(key, op));

/**
 * Whether the description demands something of every request of the operation (a required query
 * parameter or header, or a required field of its JSON body): then it has an invalid variant to send.
 */
const demandsSomething = (op: Operation) =>
  op.parameters.some((p) => p.required && (p.in === 'query' || p.in === 'header')) ||
  (flatten(op.requestBody?.content?.['application/json']).required ?? []).length > 0;
const folder = tempDir('svc-invalid-requests-');
const stateFile = join(folder, 'state.json');
let t: TestEmulator;
/** `/agents/me` operations are an agent's: its Bearer token gets them past the 401 to the schema check. */
let agentAuth: string;
beforeAll(async () => {
  // A still clock: no timer or sweep changes the state between a request and the look at the file.
  t = await testEmulator({ statePath: stateFile, ...STILL });
  const made = await t.call('POST', '/agents', {
    body: {
      name: 'Contract agent',
      customerId: t.emu.fixtures.customerId,
      policy: {
        permissions: [...ALL_AGENT_PERMISSIONS],
        defaultExecutionMode: 'AUTO',
        spendingLimits: { currency: 'USD', perTransactionLimit: 100 },
      },
    },
  });
  const code = made.body.deviceCode.code;
  agentAuth = `Bearer ${(await t.call('POST', `/agents/device-codes/${code}/redeem`, { auth: false })).body.accessToken}`;
});
const authFor = (p: Planned) => (p.path.startsWith('/agents/me') ? { auth: agentAuth } : {});
afterAll(async () => {
  await t.close();
  rmSync(folder, { recursive: true, force: true });
});

describe('requests made from the API description', () => {
  it('covers every operation, and every rule class somewhere', () => {
    // Counted from the digest, so a new operation needs no edit here; one the description demands
    // something of but that gets no invalid variant fails, naming it.
    const operations = Object.entries(FACTS.operations);
    const demanding = operations.filter(([, op]) => demandsSomething(op)).map(([key]) => key);
    expect(demanding.length).toBeGreaterThan(operations.length / 3);
    const withVariants = new Set(planned.filter((p) => p.variants.length > 0).map((p) => p.key));
    expect(demanding.filter((key) => !withVariants.has(key))).toEqual([]);
    const classes = new Set(planned.flatMap((p) => p.variants.map((v) => v.rule)));
    expect([...classes].sort()).toEqual(
      ['enum', 'format', 'header', 'items', 'length', 'pattern', 'query', 'range', 'required', 'type'].sort(),
    );
  });

  it.each(planned.map((p) => [p.key, p] as const))('%s: the valid request passes the schema check', async (_k, p) => {
    const answer = await t.call(p.method, url(p, p.base.query), {
      ...authFor(p),
      headers: p.base.headers,
      ...(p.base.body !== undefined ? { body: p.base.body as object } : {}),
    });
    const refused = answer.status === 400 && isSchemaRefusal(answer.body);
    expect(refused, `${p.key} → ${answer.status} ${answer.text}`).toBe(false);
  });

  const variants = planned.flatMap((p) => p.variants.map((v) => [`${p.key} ${v.rule} ${v.field}`, p, v] as const));
  it.each(variants)('%s: 400 naming the field, nothing changed', async (_name, p, v) => {
    const before = readFileSync(stateFile);
    const answer = await t.call(p.method, url(p, v.query), {
      ...authFor(p),
      headers: v.headers,
      ...(v.body !== undefined ? { body: v.body as object } : {}),
    });
    expect(answer.status, answer.text).toBe(400);
    expect(answer.body.code).toBe('INVALID_INPUT');
    const fields = (answer.body.details.errors as { field: string }[]).map((e) => e.field);
    expect(fields, answer.text).toContain(v.field);
    expect(answer.body.message).toContain(v.field);
    expect(readFileSync(stateFile).equals(before)).toBe(true);
  });
});

// Last: compiling the description takes seconds on a loaded machine, long enough for a kept-alive
// connection of the tests above to be closed under them.
describe('the minimal requests themselves', () => {
  it('each minimal request is valid for the description itself', () => {
    const validator = new ContractValidator(join(import.meta.dirname, 'api-schema.json'));
    const invalid = planned
      .filter((p) => p.base.body !== undefined)
      .map((p) => ({ key: p.key, verdict: validator.request(validator.match(p.method, p.path)!, p.base.body) }))
      .filter((r) => !r.verdict.ok);
    expect(invalid).toEqual([]);
  });
});
