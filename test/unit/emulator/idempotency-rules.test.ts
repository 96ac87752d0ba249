/**
 * What an Idempotency-Key keeps (src/emulator/kernel/idempotency.ts), on a real
 * emulator context: only a success (2xx) is the answer to a repeat; an answer of any other status
 * is not kept, so the corrected request may reuse the key. The handlers throw their refusals
 * instead of answering them, so only this rule, not the routes, keeps a returned refusal out.
 */
import { describe, expect, it } from 'vitest';
import { idempotentAnswers, recall, remember } from '../../../src/emulator/kernel/idempotency.js';
import { VirtualClock } from '../../../src/emulator/kernel/clock.js';
import { EmulatorContext } from '../../../src/emulator/kernel/context.js';
import { createCoreState } from '../../../src/emulator/kernel/state.js';
import { TableSet } from '../../../src/emulator/kernel/tables.js';
import { resolveOptions } from '../../../src/emulator/options.js';

function context(): EmulatorContext {
  const tables = new TableSet(() => undefined, []);
  tables.register(idempotentAnswers);
  return new EmulatorContext({
    core: createCoreState(),
    opts: resolveOptions({ port: 0 }),
    file: undefined,
    clock: new VirtualClock(),
    tables,
  });
}

describe('remember keeps the answer under its key only when it is a success', () => {
  it.each([200, 201, 202, 299])('%i is kept and recalled', (status) => {
    const emu = context();
    const reply = { status, body: { id: 'Transaction:1' } };
    expect(remember(emu, 'key-1', 'POST /transfer-out', reply)).toBe(reply);
    expect(recall(emu, 'key-1', 'POST /transfer-out')).toEqual(reply);
  });

  it.each([300, 400, 409, 500])('%i is answered but not kept', (status) => {
    const emu = context();
    const reply = { status, body: { code: 'X' } };
    expect(remember(emu, 'key-1', 'POST /transfer-out', reply)).toBe(reply);
    expect(recall(emu, 'key-1', 'POST /transfer-out')).toBeUndefined();
  });
});
