/**
 * State files written before quotes had sources and destinations of every kind held only
 * real-time-funding quotes, with their body apart. Such records are rewritten in the current shape.
 */
import type { EmulatorContext } from '../../kernel/context.js';
import { quotes, type QuoteRec } from './quotes.js';

export function migrateQuotes(emu: EmulatorContext): void {
  for (const [id, record] of emu.table(quotes).entries()) {
    if ((record as Partial<QuoteRec>).sourceKind) continue;
    const old = record as unknown as Record<string, any>;
    const body = (old.body ?? {}) as Record<string, any>;
    const {
      createdAt,
      source,
      destination,
      lockedCurrencySide,
      lockedCurrencyAmount,
      exchangeRate,
      feesIncluded,
      ...extra
    } = body;
    emu.table(quotes).set(id, {
      id,
      source: source ?? { sourceType: 'REALTIME_FUNDING', currency: old.sendingCurrency },
      destination: destination ?? {},
      sourceKind: 'REALTIME_FUNDING',
      destinationKind: old.destinationAccountId ? 'INTERNAL' : 'UMA',
      destinationId: old.destinationAccountId ?? old.destinationUmaAddress ?? '',
      sendingCurrency: old.sendingCurrency,
      receivingCurrency: old.receivingCurrency,
      totalSendingAmount: old.totalSendingAmount,
      totalReceivingAmount: old.totalReceivingAmount,
      exchangeRate: typeof exchangeRate === 'number' ? exchangeRate : 1,
      feesIncluded: typeof feesIncluded === 'number' ? feesIncluded : 0,
      lockedCurrencySide: lockedCurrencySide === 'RECEIVING' ? 'RECEIVING' : 'SENDING',
      lockedCurrencyAmount: typeof lockedCurrencyAmount === 'number' ? lockedCurrencyAmount : old.totalSendingAmount,
      extra,
      createdAtMs: typeof createdAt === 'string' ? Date.parse(createdAt) : emu.now(),
      expiresAtMs: old.expiresAtMs ?? emu.now(),
      ...(old.transactionId ? { transactionId: old.transactionId } : {}),
    });
  }
}
