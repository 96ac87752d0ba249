/** `svc sandbox fund <InternalAccount:id> --amount <int>`: credits a sandbox internal account at once. */
import type { OptionsOf } from '../verb.js';
import type * as verbs from './verbs.js';
import type { Deps } from '../deps.js';
import { requireId } from '../../src/validate.js';
import { apiTokenCall } from '../auth-hints.js';
import { fundInternalAccount, MAX_FUND_AMOUNT } from '../../src/sandbox/api.js';
import { currencyOf, formatMinorUnits, formatMoney } from '../../src/sandbox/format-money.js';
import { checkAll, requireAmount } from './inputs.js';

export type FundOptions = OptionsOf<typeof verbs.fund>;

export async function run(opts: FundOptions, deps: Deps): Promise<void> {
  const { accountId, amount } = checkAll({
    accountId: () => requireId('InternalAccount', opts.account, 'account'),
    amount: () => requireAmount(opts.amount, '--amount', MAX_FUND_AMOUNT),
  });

  const client = await deps.client();
  const { ui } = deps;
  const { body } = await apiTokenCall(fundInternalAccount(client, accountId, amount, deps.signal));
  ui.result(body, () => {
    const balance = formatMoney(body?.balance);
    const { code, decimals } = currencyOf(body?.balance);
    ui.out(`Funded ${body?.id ?? accountId}${balance ? ` balance ${balance}` : ''}`);
    ui.info(`Added ${formatMinorUnits(amount, decimals)}${code ? ` ${code}` : ''} (${amount} in the smallest unit).`);
  });
}
