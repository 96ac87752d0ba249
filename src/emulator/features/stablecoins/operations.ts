/**
 * Mint and burn operations of a registered stablecoin (201; Idempotency-Key required), a
 * stablecoin's operations (newest first, paged) and one operation. Accounts named in the body must
 * exist (404) and be of the kind the description says: a mint pays into a Spark wallet external
 * account (or an internal account) and is debited from a USD bank account; a burn pays out to a USD
 * bank account. The funding variants the description marks as reserved for later are refused.
 */
import { randomBytes } from 'node:crypto';
import { idPattern } from '../../../service/identifiers.js';
import type { EmulatorContext } from '../../kernel/context.js';
import { Fields } from '../../kernel/fields.js';
import { newId } from '../../kernel/ids.js';
import { pageOf, readPage } from '../../kernel/paging.js';
import type { Route } from '../../kernel/router.js';
import { requireAccount } from '../accounts/accounts.js';
import { requireExternalAccount } from '../external-accounts/records.js';
import { FUNDING_WINDOW_MS, scheduleOperation, setStatus } from './lifecycle.js';
import {
  byStablecoin,
  operationOr404,
  operations,
  stablecoinOr404,
  type OperationRec,
  type OperationStatus,
  type StablecoinRec,
} from './records.js';

/** The description: "reserved for follow-up support" / "for future … flows". */
const RESERVED = new Set(['GRID_INTERNAL_ACCOUNT', 'PROVIDER_INTERNAL_BALANCE']);
const RESERVED_BURN = new Set(['GRID_INTERNAL_ACCOUNT']);
/** The description's StablecoinEstimatedDelivery is guidance: these are the emulator's. */
const RAIL_TIMING: Record<string, string> = {
  WIRE: 'same business day',
  ACH_CREDIT: '1-3 business days',
  SAME_DAY_ACH_CREDIT: 'same business day',
  RTP_CREDIT: 'within minutes',
};
/** The sandbox provider's wire details for funding a mint (invented; nothing is ever wired there). */
const WIRE_INSTRUCTIONS = {
  rail: 'WIRE',
  bankName: 'Sandbox Provider Bank',
  accountNumber: '000123456789',
  routingNumber: '021000021',
};

const ids = { external: idPattern('ExternalAccount'), internal: idPattern('InternalAccount') };

/** The amount in the token's smallest unit: a whole number of fiat cents (decimals ≥ 2). */
function readAmount(f: Fields, coin: StablecoinRec): string | undefined {
  const unit = 10n ** BigInt(Math.max(coin.decimals - 2, 0));
  // Digits only is the description's pattern, checked before this runs; the length is the emulator's bound.
  return f.string('amount', {
    maxLength: 30,
    check: (v) => {
      const n = BigInt(v);
      if (n === 0n) return 'amount must be more than 0';
      return n % unit === 0n
        ? undefined
        : `amount must be a whole number of cents: a multiple of ${unit} at ${coin.decimals} decimals`;
    },
  });
}

/** Whether the external account is of one of the kinds; the message names the field otherwise. */
function checkKind(emu: EmulatorContext, id: string, kinds: string[], field: string, f: Fields): void {
  const account = requireExternalAccount(emu, id);
  const kind = account.accountInfo.accountType as string;
  if (!kinds.includes(kind)) f.add(field, `${id} is a ${kind}; this needs a ${kinds.join(' or ')} external account`);
}

function newOperation(
  emu: EmulatorContext,
  coin: StablecoinRec,
  type: OperationRec['operationType'],
  amount: string,
  status: OperationStatus,
  rest: Partial<OperationRec>,
): OperationRec {
  const now = emu.iso();
  const op: OperationRec = {
    id: newId('StablecoinOperation'),
    stablecoinId: coin.id,
    operationType: type,
    status,
    amount,
    provider: coin.provider,
    providerEnvironment: coin.providerEnvironment,
    stablecoinProviderAccountId: coin.stablecoinProviderAccountId,
    ...rest,
    createdAt: now,
    updatedAt: now,
  };
  if (status === 'PENDING_FUNDING') op.expiresAt = emu.iso(emu.now() + FUNDING_WINDOW_MS);
  setStatus(emu, op, status);
  scheduleOperation(emu, op.id);
  return op;
}

const mint: Route = {
  method: 'POST',
  path: '/stablecoins/:id/mints',
  permission: 'TRANSACT',
  idempotent: {},
  handler(req, emu) {
    const coin = stablecoinOr404(emu, req.params.id!);
    const f = new Fields(req.json());
    const amount = readAmount(f, coin);
    // The body's shape (required fields, the funding tag and its branch) is the description's, checked before this runs.
    const funding = f.object('fundingSource');
    const type = funding?.string('type');
    if (type && RESERVED.has(type))
      funding!.add('type', `${type} funding is reserved for later; use WIRE, ACH_DEBIT or SAME_DAY_ACH_DEBIT`);
    const debited =
      type === 'ACH_DEBIT' || type === 'SAME_DAY_ACH_DEBIT'
        ? funding!.string('externalAccountId', { pattern: ids.external })
        : undefined;
    const destination = f.object('destination');
    const accountId = destination?.string('accountId', {
      check: (v) =>
        ids.external.test(v) || ids.internal.test(v)
          ? undefined
          : 'accountId must be an ExternalAccount or InternalAccount id',
    });
    const description = f.string('description');
    f.done();
    // Existence first (404), then kind (400 naming the field).
    if (debited) checkKind(emu, debited, ['USD_ACCOUNT'], 'fundingSource.externalAccountId', f);
    if (accountId!.startsWith('InternalAccount:')) requireAccount(emu, accountId!);
    else checkKind(emu, accountId!, ['SPARK_WALLET'], 'destination.accountId', f);
    f.done();
    const operation = newOperation(
      emu,
      coin,
      'MINT',
      amount!,
      type === 'WIRE' ? 'PENDING_FUNDING' : 'PENDING_PROVIDER',
      {
        source: { type: type!, ...(debited ? { externalAccountId: debited } : {}) },
        ...(type === 'WIRE' ? { fundingInstructions: { ...WIRE_INSTRUCTIONS, reference: coin.symbol } } : {}),
        destination: { accountId: accountId! },
        ...(description !== undefined ? { description } : {}),
      },
    );
    return { status: 201, body: operation };
  },
};

const BECH32 = 'qpzry9x8gf2tvdw0s3jn54khce6mua7l';
/** A deposit address of the sandbox provider for tokens sent to be burned (invented, never watched). */
const depositAddress = () => `sparkrt1${[...randomBytes(40)].map((b) => BECH32[b % 32]).join('')}`;

const burn: Route = {
  method: 'POST',
  path: '/stablecoins/:id/burns',
  permission: 'TRANSACT',
  idempotent: {},
  handler(req, emu) {
    const coin = stablecoinOr404(emu, req.params.id!);
    const f = new Fields(req.json());
    const amount = readAmount(f, coin);
    // The body's shape (required fields, enums, the source tag and its branch) is the description's, checked before this runs.
    const source = f.object('source');
    const type = source?.string('type');
    if (type && RESERVED_BURN.has(type))
      source!.add('type', `${type} burns are reserved for later; use EXTERNAL_ACCOUNT or PROVIDER_INTERNAL_BALANCE`);
    const destination = f.object('destination');
    const payee = destination?.string('externalAccountId', { pattern: ids.external });
    const rail = destination?.string('rail');
    const description = f.string('description');
    f.done();
    checkKind(emu, payee!, ['USD_ACCOUNT'], 'destination.externalAccountId', f);
    f.done();
    const external = type === 'EXTERNAL_ACCOUNT';
    const cents = (BigInt(amount!) / 10n ** BigInt(Math.max(coin.decimals - 2, 0))).toString();
    const operation = newOperation(emu, coin, 'BURN', amount!, external ? 'PENDING_FUNDING' : 'PENDING_PROVIDER', {
      source: { type: type! },
      ...(external
        ? {
            fundingInstructions: {
              rail: 'SPARK',
              network: 'SPARK',
              address: depositAddress(),
              valueType: coin.providerTokenIdentifier,
            },
          }
        : {}),
      destination: { accountId: payee!, rail: rail! },
      estimatedDelivery: { rail: rail!, amount: cents, currency: coin.baseCurrency, timing: RAIL_TIMING[rail!]! },
      ...(description !== undefined ? { description } : {}),
    });
    return { status: 201, body: operation };
  },
};

const list: Route = {
  method: 'GET',
  path: '/stablecoins/:id/operations',
  permission: 'VIEW',
  handler(req, emu) {
    const coin = stablecoinOr404(emu, req.params.id!);
    // operationType's enum is the description's, checked before this runs.
    const f = new Fields(Object.fromEntries(req.query));
    const type = f.string('operationType');
    const paging = readPage(f);
    f.done();
    const picked = emu
      .table(operations)
      .where(byStablecoin, coin.id)
      .filter((op) => !type || op.operationType === type)
      .reverse();
    return { status: 200, body: pageOf(picked, paging) };
  },
};

const get: Route = {
  method: 'GET',
  path: '/stablecoin-operations/:id',
  permission: 'VIEW',
  handler: (req, emu) => ({ status: 200, body: operationOr404(emu, req.params.id!) }),
};

export const operationRoutes: Route[] = [mint, burn, list, get];
