/**
 * Every operation of the service's public API description is routed: the emulator answers each one
 * with something other than its router's "No route" 404 or a 405. The operations are the committed
 * list openapi-operations.txt (method, path, operationId), made once from the description.
 * Path parameters get an identifier of the kind the description names, so routes that only take one
 * kind of id (`/customers/:id(Customer)`) are reached; what the area then answers (404 for an unknown
 * id, 400 for an empty body) is its own business and other tests'.
 */
import { readFileSync } from 'node:fs';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { testEmulator, type TestEmulator } from '../support.js';

const ZERO = '00000000-0000-0000-0000-000000000000';

/** An identifier for each path parameter of the description, by its name. */
const SAMPLE_IDS: Record<string, string> = {
  customerId: `Customer:${ZERO}`,
  credentialId: `AuthMethod:${ZERO}`,
  resetId: `ScaReset:${ZERO}`,
  externalAccountId: `ExternalAccount:${ZERO}`,
  beneficialOwnerId: `BeneficialOwner:${ZERO}`,
  documentId: `Document:${ZERO}`,
  verificationId: `Verification:${ZERO}`,
  receiverUmaAddress: '$nobody@uma.example',
  accountId: `InternalAccount:${ZERO}`,
  quoteId: `Quote:${ZERO}`,
  transactionId: `Transaction:${ZERO}`,
  jobId: `BulkCustomerImportJob:${ZERO}`,
  invitationCode: 'NOSUCHCODE',
  tokenId: `Token:${ZERO}`,
  agentId: `Agent:${ZERO}`,
  actionId: `AgentAction:${ZERO}`,
  code: 'NOSUCHCODE',
  stablecoinId: `Stablecoin:${ZERO}`,
  stablecoinOperationId: `StablecoinOperation:${ZERO}`,
  stablecoinProviderAccountId: `StablecoinProviderAccount:${ZERO}`,
};

interface Operation {
  method: string;
  path: string;
  operationId: string;
}

function operations(): Operation[] {
  const text = readFileSync(new URL('./openapi-operations.txt', import.meta.url), 'utf8');
  return text
    .split('\n')
    .filter((line) => line.trim() && !line.startsWith('#'))
    .map((line) => {
      const [method, path, operationId] = line.trim().split(/\s+/) as [string, string, string];
      return { method, path, operationId };
    });
}

/** The description's path with each `{name}` replaced by a sample id (`{id}` by the kind its path implies). */
function concretePath(op: Operation): string {
  return op.path.replace(/\{([A-Za-z]+)\}/g, (_m, name: string) => {
    const id = name === 'id' ? idFor(op.path) : SAMPLE_IDS[name];
    if (!id) throw new Error(`no sample id for {${name}} in ${op.path}: add one to SAMPLE_IDS`);
    return encodeURIComponent(id);
  });
}

/** `{id}` is named by the path's first segment. */
function idFor(path: string): string {
  const kinds: Record<string, string> = {
    'internal-accounts': 'InternalAccount',
    auth: path.includes('sessions') ? 'Session' : path.includes('delegated-keys') ? 'DelegatedKey' : 'AuthMethod',
    cards: 'Card',
    sandbox: 'Card',
  };
  const kind = kinds[path.split('/')[1]!];
  if (!kind) throw new Error(`no kind for {id} in ${path}`);
  return `${kind}:${ZERO}`;
}

/**
 * Operations not routed yet, each named until its area lands (then the line goes).
 */
const NOT_YET = new Set<string>([]);

let t: TestEmulator;
beforeAll(async () => {
  t = await testEmulator();
});
afterAll(() => t.close());

const all = operations();

describe('every operation of the API description is routed', () => {
  it('reads the whole list', () => {
    expect(all.length).toBe(153);
    expect(new Set(all.map((op) => op.operationId)).size).toBe(all.length);
  });

  it('names only operations of the description as not yet routed', () => {
    const known = new Set(all.map((op) => op.operationId));
    expect([...NOT_YET].filter((id) => !known.has(id))).toEqual([]);
  });

  for (const op of all.filter((o) => NOT_YET.has(o.operationId))) it.todo(op.operationId);

  it.each(all.filter((op) => !NOT_YET.has(op.operationId)).map((op) => [op.operationId, op] as const))(
    '%s',
    async (_name, op) => {
      const body = op.method === 'GET' || op.method === 'DELETE' ? {} : { body: {} };
      const answer = await t.call(op.method, concretePath(op), body);
      const notRouted =
        answer.status === 405 || (answer.status === 404 && /^No route/.test(answer.body?.message ?? ''));
      expect(notRouted, `${op.method} ${op.path} answered ${answer.status} ${answer.text}`).toBe(false);
    },
  );
});
