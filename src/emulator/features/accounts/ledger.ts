/**
 * Balance movements of internal accounts, grouped so that one change of a transaction emits one
 * INTERNAL_ACCOUNT.BALANCE_UPDATED per account whose balance or totalBalance it really moved (a
 * hold released in the same step moves nothing and says nothing).
 *
 * hold: available → held (a payout on its way); settle: the held money leaves; release: it comes
 * back; credit / debit: money arrives / leaves at once.
 */
import type { EmulatorContext } from '../../kernel/context.js';
import { badRequest } from '../../kernel/errors.js';
import { accounts, renderAccount, type AccountRec } from './accounts.js';

export class LedgerBatch {
  private readonly emu: EmulatorContext;
  private readonly before = new Map<string, { balance: number; held: number }>();

  constructor(emu: EmulatorContext) {
    this.emu = emu;
  }

  private touch(id: string): AccountRec {
    const account = this.emu.table(accounts).get(id);
    if (!account) throw new Error(`ledger: no account ${id}`);
    if (!this.before.has(id)) this.before.set(id, { balance: account.balance, held: account.held ?? 0 });
    account.updatedAt = this.emu.iso();
    return account;
  }

  /** Reserves amount of the available balance; 400 when it is not there (nothing is moved then). */
  hold(id: string, amount: number): void {
    const account = this.emu.table(accounts).get(id);
    if (!account || account.balance < amount) {
      throw badRequest(
        'INVALID_AMOUNT',
        `Insufficient funds: ${id} has ${account?.balance ?? 0} available, ${amount} is needed`,
      );
    }
    const a = this.touch(id);
    a.balance -= amount;
    a.held = (a.held ?? 0) + amount;
  }

  settle(id: string, amount: number): void {
    const a = this.touch(id);
    a.held = (a.held ?? 0) - amount;
  }

  release(id: string, amount: number): void {
    const a = this.touch(id);
    a.held = (a.held ?? 0) - amount;
    a.balance += amount;
  }

  credit(id: string, amount: number): void {
    const a = this.touch(id);
    if (!Number.isSafeInteger(a.balance + amount))
      throw badRequest('AMOUNT_OUT_OF_RANGE', `The balance would exceed ${Number.MAX_SAFE_INTEGER}`);
    a.balance += amount;
  }

  /** Saves and emits BALANCE_UPDATED for every account whose balances differ from the start. */
  commit(): void {
    this.emu.changed();
    for (const [id, was] of this.before) {
      const a = this.emu.table(accounts).get(id)!;
      if (a.balance !== was.balance || (a.held ?? 0) !== was.held)
        this.emu.outbox.emit('INTERNAL_ACCOUNT.BALANCE_UPDATED', renderAccount(a));
    }
    this.before.clear();
  }
}
