/**
 * `svc sandbox uma-receive --sender <uma> --receiver <uma> --currency <code> --amount <int>`: simulates
 * an incoming UMA payment. Magic addresses ($success.usd@…, $pending.long.usd@…, $fail.compliance.usd@…)
 * steer the outcome; on a terminal we say which one was picked so a FAILED result is not a surprise.
 */
import type { OptionsOf } from '../verb.js';
import type * as verbs from './verbs.js';
import type { Deps } from '../deps.js';
import { apiTokenCall } from '../auth-hints.js';
import { sandboxUmaReceive } from '../../src/sandbox/api.js';
import { umaMagic } from '../../src/sandbox/uma.js';
import { checkAll, requireAmount, requireCurrencyFlag, requireUmaFlag } from './inputs.js';
import { describeTransaction, receivedCurrency } from './summary.js';

export type UmaReceiveOptions = OptionsOf<typeof verbs.umaReceive>;

export async function run(opts: UmaReceiveOptions, deps: Deps): Promise<void> {
  const input = checkAll({
    senderUmaAddress: () => requireUmaFlag(opts.sender, '--sender', '$alice@example.com'),
    receiverUmaAddress: () => requireUmaFlag(opts.receiver, '--receiver', '$bob@example.com'),
    receivingCurrencyCode: () => requireCurrencyFlag(opts.currency, '--currency'),
    receivingCurrencyAmount: () => requireAmount(opts.amount, '--amount'),
  });

  const client = await deps.client();
  const { ui } = deps;
  const { body } = await apiTokenCall(sandboxUmaReceive(client, input, deps.signal));
  ui.result(body, () => {
    const { senderUmaAddress, receiverUmaAddress } = input;
    ui.out(`Received from ${senderUmaAddress} to ${receiverUmaAddress}: ${describeTransaction(body)}`);
    // The address names the currency its scenario pays in; what arrives is in --currency. Say both
    // when they differ, so this line and the amount above do not seem to disagree.
    const received = receivedCurrency(body) ?? input.receivingCurrencyCode;
    for (const address of [senderUmaAddress, receiverUmaAddress]) {
      const magic = umaMagic(address);
      if (!magic) continue;
      if (magic.currency === received)
        ui.info(`Sandbox magic address ${address}: a payment in ${magic.currency} ${magic.outcome}.`);
      else
        ui.info(
          `Sandbox magic address ${address}: the payment ${magic.outcome}; its scenario pays in ${magic.currency}, converted to the ${received} received (--currency ${input.receivingCurrencyCode}).`,
        );
    }
  });
}
