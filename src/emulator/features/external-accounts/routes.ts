/**
 * External accounts of customers (`/customers/external-accounts`; without customerId the account is
 * the platform's) and of the platform (`/platform/external-accounts`): create, list, get, delete.
 */
import { idPattern } from '../../../service/identifiers.js';
import { primaryIdentifier } from '../../../service/money-magic.js';
import type { EmulatorContext } from '../../kernel/context.js';
import { HttpError, conflict, invalidInput, notFound } from '../../kernel/errors.js';
import { Fields } from '../../kernel/fields.js';
import { pageOf, readPage } from '../../kernel/paging.js';
import type { Req, Route } from '../../kernel/router.js';
import { ACCOUNT_TYPES } from '../../../service/account-types.js';
import { CURRENCY_CODES } from '../../../service/currencies.js';
import { customers } from '../customers/customers.js';
import { agentCustomer, callerMaySee } from '../accounts/caller.js';
import { isTrusted } from '../sca/profiles.js';
import { checkBeneficiaryName, readBeneficiary } from './beneficiary.js';
import { livenessPage, ownershipRoutes } from './ownership.js';
import {
  byOwner,
  externalAccounts,
  renderExternalAccount,
  requireExternalAccount,
  shownCurrency,
  type ExternalAccountRec,
} from './records.js';
import { variantOf } from './variants.js';
import { newId } from '../../kernel/ids.js';

type Scope = 'customer' | 'platform';

function create(req: Req, emu: EmulatorContext, scope: Scope): ExternalAccountRec {
  const f = new Fields(req.json());
  // An agent's accounts are its customer's: it has no platform to add accounts to.
  const customerId =
    scope === 'customer'
      ? (f.string('customerId', { pattern: idPattern('Customer') }) ?? agentCustomer(req))
      : undefined;
  if (scope === 'platform' && agentCustomer(req))
    throw new HttpError(
      404,
      'REFERENCE_NOT_FOUND',
      'An agent has no platform external accounts; use /customers/external-accounts',
    );
  // The description checked the body's shape (required fields, the types and their enums, the
  // beneficiary's branch); what is left is the emulator's: a currency its rate table knows, the
  // customer's id kind, a currency the account type holds.
  const currency = f.string('currency', { enum: CURRENCY_CODES });
  const platformAccountId = f.string('platformAccountId');
  const ownershipType = f.string('ownershipType') as ExternalAccountRec['ownershipType'];
  const defaultUma = scope === 'customer' ? f.boolean('defaultUmaDepositAccount') : undefined;
  const info = f.object('accountInfo');
  const accountType = info?.string('accountType');
  const type = accountType ? ACCOUNT_TYPES[accountType] : undefined;
  const fields =
    type && info ? variantOf(accountType!).read(info, f.raw('accountInfo') as Record<string, unknown>) : {};
  const beneficiary = type && info ? readBeneficiary(info, accountType!) : undefined;
  if (type && currency && !type.currencies.includes(currency))
    f.add('currency', `${accountType} accounts hold ${type.currencies.join(' or ')}`, { enum: [...type.currencies] });
  f.done();

  // Creating an external account declares no 404: an unknown customer is a bad field.
  if (customerId && !emu.table(customers).has(customerId))
    throw invalidInput([{ field: 'customerId', message: `Customer ${customerId} not found` }]);
  const accountInfo = {
    accountType,
    ...fields,
    ...(beneficiary ? { beneficiary } : {}),
    ...(type!.paymentRails ? { paymentRails: [...type!.paymentRails] } : {}),
  };
  const primary = primaryIdentifier(accountInfo);
  const duplicate = emu
    .table(externalAccounts)
    .where(byOwner, customerId ?? '')
    .find(
      (a) =>
        a.customerId === customerId && a.accountInfo.accountType === accountType && a.primaryIdentifier === primary,
    );
  if (duplicate) throw new HttpError(409, 'CONFLICT', `External account already exists: ${duplicate.id}`);
  const name = beneficiary ? String(beneficiary.fullName ?? beneficiary.legalName) : undefined;
  const nameCheck = name ? checkBeneficiaryName(primary, name) : {};
  // The description: first-party self-custody wallets (no vaspName) must prove ownership first.
  const selfCustody = type!.wallet && ownershipType === 'FIRST_PARTY' && fields.vaspName === undefined;
  const now = emu.iso();
  const account: ExternalAccountRec = {
    id: newId('ExternalAccount'),
    ...(customerId ? { customerId } : {}),
    status: selfCustody ? 'PENDING_OWNERSHIP_VERIFICATION' : 'ACTIVE',
    ...(platformAccountId ? { platformAccountId } : {}),
    ...(ownershipType ? { ownershipType } : {}),
    currency: currency!,
    ...(scope === 'customer' ? { defaultUmaDepositAccount: defaultUma ?? false } : {}),
    ...nameCheck,
    accountInfo,
    primaryIdentifier: primary,
    createdAt: now,
    updatedAt: now,
  };
  if (defaultUma && customerId) {
    // At most one default per customer: the new one overrides the old.
    for (const other of emu
      .table(externalAccounts)
      .where(byOwner, customerId)
      .filter((a) => a.defaultUmaDepositAccount === true)) {
      other.defaultUmaDepositAccount = false;
    }
  }
  return emu.table(externalAccounts).set(account.id, account);
}

function scoped(req: Req, emu: EmulatorContext, id: string, scope: Scope): ExternalAccountRec {
  const account = requireExternalAccount(emu, id);
  if ((scope === 'platform' && account.customerId) || !callerMaySee(req, account.customerId))
    throw notFound('ExternalAccount', id);
  return account;
}

function routesFor(prefix: string, scope: Scope): Route[] {
  return [
    {
      method: 'POST',
      path: prefix,
      permission: 'MANAGE',
      handler: (req, emu) => ({ status: 201, body: renderExternalAccount(create(req, emu, scope)) }),
    },
    {
      method: 'GET',
      path: prefix,
      permission: 'VIEW',
      handler(req, emu) {
        const f = new Fields(Object.fromEntries(req.query));
        const customerId =
          scope === 'customer' ? f.string('customerId', { pattern: idPattern('Customer') }) : undefined;
        const currency = f.string('currency');
        const page = readPage(f);
        f.done();
        const rows = emu
          .table(externalAccounts)
          .filter(
            (a) =>
              callerMaySee(req, a.customerId) &&
              (scope === 'platform' ? a.customerId === undefined : !customerId || a.customerId === customerId) &&
              (!currency || shownCurrency(a) === currency),
          );
        return { status: 200, body: pageOf(rows.map(renderExternalAccount), page) };
      },
    },
    {
      method: 'GET',
      path: `${prefix}/:id`,
      permission: 'VIEW',
      handler: (req, emu) => ({ status: 200, body: renderExternalAccount(scoped(req, emu, req.params.id!, scope)) }),
    },
    {
      method: 'DELETE',
      path: `${prefix}/:id`,
      permission: 'MANAGE',
      handler(req, emu) {
        const account = scoped(req, emu, req.params.id!, scope);
        if (isTrusted(emu, account.customerId, account.id))
          throw conflict(
            'BENEFICIARY_TRUSTED',
            `${account.id} is a trusted beneficiary: untrust it first (POST /customers/external-accounts/${account.id}/untrust and its /confirm)`,
          );
        emu.table(externalAccounts).delete(account.id);
        return { status: 204 };
      },
    },
    ...ownershipRoutes(prefix),
  ];
}

export const externalAccountRoutes: Route[] = [
  ...routesFor('/customers/external-accounts', 'customer'),
  ...routesFor('/platform/external-accounts', 'platform'),
  livenessPage,
];
