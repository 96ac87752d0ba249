/**
 * Receiver look-ups (`GET /receiver/uma/{address}`, `GET /receiver/external-account/{accountId}`):
 * which currencies a destination takes, an estimated rate to each, and the amounts it accepts. A
 * UMA address is an emulator customer's (the currencies of its accounts) or one of the spec's
 * sandbox scenario addresses (its currency); anything else well-formed is 404 UMA_NOT_FOUND. An
 * external account takes its own currency. Rates are from USD (every emulator customer's first
 * account; `customerId`, when given, must exist) at the emulator's rate table; `min` is 1 and `max` the
 * single-transaction maximum. Each answer has a fresh `lookupId`; quotes do not need it here.
 */
import { randomUUID } from 'node:crypto';
import { UMA_ADDRESS_PATTERN, idPattern, umaScenario } from '../../../service/index.js';
import type { EmulatorContext } from '../../kernel/context.js';
import { HttpError, badRequest, notFound } from '../../kernel/errors.js';
import { Fields } from '../../kernel/fields.js';
import type { Req, Route } from '../../kernel/router.js';
import { accounts } from '../accounts/accounts.js';
import { callerMaySee } from '../accounts/caller.js';
import { CURRENCIES } from '../accounts/currencies.js';
import { maxAmount } from '../transactions/limits.js';
import { customerOr404, findCustomerByUma } from '../customers/customers.js';
import { rates } from '../exchange-rates/rates.js';
import { externalAccounts } from '../external-accounts/records.js';

/** Checks the optional sender parameters; the rates are from USD, every emulator sender's first currency. */
function senderCurrency(emu: EmulatorContext, req: Req): string {
  const f = new Fields(Object.fromEntries(req.query));
  const customerId = f.string('customerId', { pattern: idPattern('Customer') });
  f.string('senderUmaAddress', { pattern: UMA_ADDRESS_PATTERN });
  f.done();
  if (customerId) customerOr404(emu, customerId);
  return 'USD';
}

function preferences(emu: EmulatorContext, from: string, currencies: readonly string[]): Record<string, unknown>[] {
  const snapshot = rates(emu);
  return currencies.map((code) => ({
    currency: CURRENCIES[code],
    // "From the sender's currency to this currency": units of this one a unit of the sender's buys.
    estimatedExchangeRate: snapshot.rate(code, from),
    min: 1,
    max: maxAmount(emu, code),
  }));
}

const lookupUma: Route = {
  method: 'GET',
  path: '/receiver/uma/:address',
  permission: 'VIEW',
  handler(req, emu) {
    const address = req.params.address!;
    if (!UMA_ADDRESS_PATTERN.test(address))
      throw badRequest('INVALID_UMA_ADDRESS', `${address} is not a UMA address ($name@domain)`);
    const from = senderCurrency(emu, req);
    const scenario = umaScenario(address);
    const customer = scenario ? undefined : findCustomerByUma(emu, address);
    if (!scenario && (!customer || customer.isDeleted))
      throw new HttpError(404, 'UMA_NOT_FOUND', `No receiver exists at ${address}`);
    const currencies = scenario
      ? [scenario.currency]
      : [
          ...new Set(
            emu
              .table(accounts)
              .filter((a) => a.customerId === customer!.id)
              .map((a) => a.currency),
          ),
        ];
    return {
      status: 200,
      body: {
        receiverUmaAddress: address,
        supportedCurrencies: preferences(emu, from, currencies),
        lookupId: `Lookup:${randomUUID()}`,
      },
    };
  },
};

const lookupExternal: Route = {
  method: 'GET',
  path: '/receiver/external-account/:accountId',
  permission: 'VIEW',
  handler(req, emu) {
    const account = emu.table(externalAccounts).get(req.params.accountId!);
    if (!account || !callerMaySee(req, account.customerId)) throw notFound('ExternalAccount', req.params.accountId!);
    const from = senderCurrency(emu, req);
    return {
      status: 200,
      body: {
        accountId: account.id,
        supportedCurrencies: preferences(emu, from, [account.currency]),
        lookupId: `Lookup:${randomUUID()}`,
      },
    };
  },
};

export const receiverRoutes: Route[] = [lookupUma, lookupExternal];
