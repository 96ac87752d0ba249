/**
 * Start-up fixtures: ids a client can use at once (an account, a credential, a card…). Each area
 * names the keys it makes (`Feature.fixtureKeys`) and makes them (`Feature.fixtures`); the kernel
 * runs them in the features' order, checks every key was made and keeps them in the state, so a
 * restart with --state keeps the same ids.
 */
import type { EmulatorContext } from './context.js';
import type { AnyFeature } from './feature.js';

/** Fixture ids by key (`cardId`), as each area types the keys it makes or reads. */
export type Fixtures<K extends string = string> = { [P in K]: string };

/** The fixture keys of a feature list, in order: the order start-up prints them in (`--json` keys). */
function fixtureKeys(features: readonly AnyFeature[]): string[] {
  return features.flatMap((f) => f.fixtureKeys ?? []);
}

/** The features' fixtures, each seeing those made above it (and those of the last run); saved so a restart keeps them. */
export function ensureFixtures(emu: EmulatorContext, features: readonly AnyFeature[]): Fixtures {
  let made: Partial<Fixtures> = { ...emu.core.fixtures };
  for (const feature of features) if (feature.fixtures) made = { ...made, ...feature.fixtures(emu, made) };
  const keys = fixtureKeys(features);
  const missing = keys.filter((key) => made[key] === undefined);
  if (missing.length > 0) throw new Error(`no feature made the fixture ${missing.join(', ')}`);
  emu.core.fixtures = Object.fromEntries(keys.map((key) => [key, made[key]!]));
  emu.changed();
  return emu.core.fixtures;
}
