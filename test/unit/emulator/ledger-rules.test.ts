/**
 * The ledger's rules (src/emulator/features/accounts/ledger.ts) on a real emulator context and its
 * real webhook outbox (no endpoint: events are logged, not sent): a hold needs the money available
 * and says how much there is; a credit may not take a balance past what JSON numbers hold exactly;
 * a batch emits one BALANCE_UPDATED per account it really moved, and none when it moved nothing.
 */
import { describe, expect, it } from 'vitest';
import { accounts, type AccountRec } from '../../../src/emulator/features/accounts/accounts.js';
import { LedgerBatch } from '../../../src/emulator/features/accounts/ledger.js';
import { VirtualClock } from '../../../src/emulator/kernel/clock.js';
import { EmulatorContext } from '../../../src/emulator/kernel/context.js';
import { HttpError } from '../../../src/emulator/kernel/errors.js';
import { webhookEvents } from '../../../src/emulator/kernel/event-log.js';
import { WebhookOutbox } from '../../../src/emulator/kernel/outbox.js';
import { createCoreState } from '../../../src/emulator/kernel/state.js';
import { TableSet } from '../../../src/emulator/kernel/tables.js';
import { resolveOptions } from '../../../src/emulator/options.js';

function ledgerContext(): EmulatorContext {
  const tables = new TableSet(() => undefined, []);
  tables.register(accounts);
  tables.register(webhookEvents);
  const emu = new EmulatorContext({
    core: createCoreState(),
    opts: resolveOptions({ port: 0 }),
    file: undefined,
    clock: new VirtualClock(),
    tables,
  });
  emu.outbox = new WebhookOutbox(emu);
  return emu;
}

function openAccount(emu: EmulatorContext, id: string, balance: number, held = 0): AccountRec {
  const at = emu.iso();
  const account: AccountRec = {
    id,
    customerId: 'Customer:1',
    organizationId: 'org-1',
    type: 'EMBEDDED_WALLET',
    status: 'ACTIVE',
    currency: 'USD',
    balance,
    held,
    createdAt: at,
    updatedAt: at,
  };
  emu.table(accounts).set(id, account);
  return account;
}

const updated = (emu: EmulatorContext) =>
  emu.outbox.events
    .select({ types: ['INTERNAL_ACCOUNT.BALANCE_UPDATED'] })
    .map((e) => (JSON.parse(e.body) as { data: { id: string } }).data.id);

function refusal(fn: () => void): HttpError {
  try {
    fn();
  } catch (error) {
    expect(error).toBeInstanceOf(HttpError);
    return error as HttpError;
  }
  throw new Error('expected a refusal');
}

describe('a hold', () => {
  it('needs the money available, says how much there is, and moves nothing when refused', () => {
    const emu = ledgerContext();
    const a = openAccount(emu, 'InternalAccount:a', 100);
    const error = refusal(() => new LedgerBatch(emu).hold(a.id, 150));
    expect(error).toMatchObject({ status: 400, code: 'INVALID_AMOUNT' });
    expect(error.message).toBe('Insufficient funds: InternalAccount:a has 100 available, 150 is needed');
    expect(refusal(() => new LedgerBatch(emu).hold('InternalAccount:none', 1)).message).toBe(
      'Insufficient funds: InternalAccount:none has 0 available, 1 is needed',
    );
    expect(emu.table(accounts).get(a.id)).toMatchObject({ balance: 100, held: 0 });
  });
});

describe('a credit', () => {
  it('may not take a balance past Number.MAX_SAFE_INTEGER', () => {
    const emu = ledgerContext();
    const a = openAccount(emu, 'InternalAccount:a', Number.MAX_SAFE_INTEGER - 10);
    const error = refusal(() => new LedgerBatch(emu).credit(a.id, 11));
    expect(error).toMatchObject({ status: 400, code: 'AMOUNT_OUT_OF_RANGE' });
    expect(error.message).toBe(`The balance would exceed ${Number.MAX_SAFE_INTEGER}`);
    new LedgerBatch(emu).credit(a.id, 10);
    expect(emu.table(accounts).get(a.id)?.balance).toBe(Number.MAX_SAFE_INTEGER);
  });

  it('of an account that does not exist is a bug of the caller, named', () => {
    expect(() => new LedgerBatch(ledgerContext()).credit('InternalAccount:none', 1)).toThrow(
      'ledger: no account InternalAccount:none',
    );
  });
});

describe('commit', () => {
  it('emits one BALANCE_UPDATED per account it moved, none for a hold released in the same batch', () => {
    const emu = ledgerContext();
    const a = openAccount(emu, 'InternalAccount:a', 100, 40);
    const b = openAccount(emu, 'InternalAccount:b', 100, 40);
    const c = openAccount(emu, 'InternalAccount:c', 100, 40);
    const batch = new LedgerBatch(emu);
    batch.hold(a.id, 30);
    batch.release(a.id, 30); // back where it was: says nothing
    batch.settle(b.id, 40); // only the held money leaves: totalBalance moved
    batch.credit(c.id, 5);
    batch.credit(c.id, 5); // two steps, one update
    batch.commit();
    expect(updated(emu).sort()).toEqual([b.id, c.id]);
    expect(emu.table(accounts).get(b.id)).toMatchObject({ balance: 100, held: 0 });
    expect(emu.table(accounts).get(c.id)).toMatchObject({ balance: 110, held: 40 });
  });
});
