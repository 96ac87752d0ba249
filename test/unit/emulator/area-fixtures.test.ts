/**
 * Fixtures and test hooks are the areas' own (kernel/fixtures.ts, testing.ts): the kernel runs each
 * area's fixtures in list order, keeps the declared keys in that order, refuses a key nobody made,
 * and merges each area's hooks into `emulator.testing`.
 */
import { describe, expect, it } from 'vitest';
import { VirtualClock } from '../../../src/emulator/kernel/clock.js';
import { EmulatorContext } from '../../../src/emulator/kernel/context.js';
import { defineFeature } from '../../../src/emulator/kernel/feature.js';
import { ensureFixtures, type Fixtures } from '../../../src/emulator/kernel/fixtures.js';
import { createCoreState } from '../../../src/emulator/kernel/state.js';
import { TableSet } from '../../../src/emulator/kernel/tables.js';
import { resolveOptions } from '../../../src/emulator/options.js';
import { testingHooks } from '../../../src/emulator/testing.js';

function context(fixtures?: Fixtures): EmulatorContext {
  const core = createCoreState();
  if (fixtures) core.fixtures = fixtures;
  return new EmulatorContext({
    core,
    opts: resolveOptions({ port: 0 }),
    file: undefined,
    clock: new VirtualClock(),
    tables: new TableSet(() => undefined, []),
  });
}

const owner = defineFeature({
  name: 'owner',
  fixtureKeys: ['ownerId', 'ownerEmail'],
  fixtures: (_emu, made: Partial<Fixtures<'ownerId'>>) =>
    made.ownerId ? {} : { ownerId: 'Owner:1', ownerEmail: 'o@example.test' },
});
const pet = defineFeature({
  name: 'pet',
  fixtureKeys: ['petId'],
  fixtures: (_emu, made: Partial<Fixtures<'ownerId'>>) => ({ petId: `Pet:of-${made.ownerId}` }),
  testing: (_emu, fixtures: Fixtures<'petId'>) => ({ petName: () => `pet ${fixtures.petId}` }),
});

describe('area fixtures and test hooks', () => {
  it('each area sees the ids made above it; the keys keep the list order and are saved in the state', () => {
    const emu = context();
    const made = ensureFixtures(emu, [owner, pet]);
    expect(made).toEqual({ ownerId: 'Owner:1', ownerEmail: 'o@example.test', petId: 'Pet:of-Owner:1' });
    expect(Object.keys(made)).toEqual(['ownerId', 'ownerEmail', 'petId']);
    expect(emu.core.fixtures).toEqual(made);
  });

  it('a restart keeps the saved ids: an area returns nothing for what is still good', () => {
    const emu = context({ ownerId: 'Owner:kept', ownerEmail: 'k@example.test', petId: 'Pet:old' });
    expect(ensureFixtures(emu, [owner, pet])).toEqual({
      ownerId: 'Owner:kept',
      ownerEmail: 'k@example.test',
      petId: 'Pet:of-Owner:kept',
    });
  });

  it('a declared key no area made stops the start, naming it', () => {
    const liar = defineFeature({ name: 'liar', fixtureKeys: ['ghostId'], fixtures: () => ({}) });
    expect(() => ensureFixtures(context(), [owner, liar])).toThrow('no feature made the fixture ghostId');
  });

  it("emulator.testing has the kernel's hooks and each area's, over the same fixtures", () => {
    const emu = context();
    const fixtures = ensureFixtures(emu, [owner, pet]);
    const hooks = testingHooks(emu, fixtures, [owner, pet]) as unknown as { petName(): string; now(): number };
    expect(hooks.petName()).toBe('pet Pet:of-Owner:1');
    expect(hooks.now()).toBe(emu.now());
  });
});
