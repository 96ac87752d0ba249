/**
 * What an area of the emulator gives the kernel (see ../features.ts for the list and
 * ../README.md "Adding an area"). Everything is optional except the name. An area's options are
 * declared apart, in its options.ts (kernel/option.ts), since the CLI reads them at every start.
 */
import type { Authenticator, BasicVerifier } from './auth.js';
import type { EmulatorContext } from './context.js';
import type { Fixtures } from './fixtures.js';
import type { Route } from './router.js';
import type { TableDef } from './tables.js';

/**
 * `K`: the fixture keys the area makes; `H`: its test hooks. Both are inferred when the area is
 * written with `defineFeature`, and `RunningEmulator` gets its `fixtures` and `testing` types from them.
 */
export interface Feature<K extends string = never, H extends object = object> {
  /** Folder name under features/, for messages. */
  name: string;
  /** HTTP routes; paths are below the version segment unless the route says `unversioned`. */
  routes?: readonly Route[];
  /** Tables this area owns; durable ones are saved in the state file under their names. */
  tables?: readonly TableDef<any>[];
  /** Forgets what has no use any more; runs every sweep interval of virtual time. */
  sweep?(emu: EmulatorContext, nowMs: number): void;
  /** The start-up fixture ids this area makes, in the order start-up prints them. */
  fixtureKeys?: readonly K[];
  /**
   * Start-up fixtures: given those made so far (by earlier features in the list, or by the last
   * run when a state file is reused), returns this area's ids, creating what is missing or stale.
   * An area types `made` with the keys it reads (`Partial<Fixtures<'accountId' | 'cardId'>>`).
   */
  fixtures?(emu: EmulatorContext, made: Partial<Fixtures>): Partial<Fixtures<K>>;
  /** Test shortcuts past flows a test is not about, merged into `emulator.testing`; not part of the service. */
  testing?(emu: EmulatorContext, fixtures: Fixtures): H;
  /** After the state is loaded and before the first request: rebuild indexes, re-arm timers. */
  resume?(emu: EmulatorContext): void;
  /** Authorization schemes besides Basic that this area answers, by lower-case scheme name. */
  authSchemes?: Readonly<Record<string, Authenticator>>;
  /** HTTP Basic credentials besides the emulator's own (API tokens made with POST /tokens). */
  basicCredentials?: BasicVerifier;
}

/** Any feature, whatever its fixture keys and hooks: what lists of features hold. */
export type AnyFeature = Feature<string, object>;

/** The fixture keys features make (a union of features gives all of theirs). */
export type FixtureKeysOf<F> = F extends { fixtureKeys?: readonly (infer K)[] } ? K : never;
/** The test hooks of features, all of them together. */
export type TestHooksOf<F> = Intersection<F extends { testing?(...args: never[]): infer H } ? H : never>;
/** One type with every member of the union U (the hooks of all areas, the options of all areas). */
export type Intersection<U> = (U extends unknown ? (x: U) => void : never) extends (x: infer I) => void ? I : never;

/** A feature whose fixture keys and test hooks are inferred (`fixtureKeys: ['cardId']`). */
export function defineFeature<const K extends string = never, H extends object = object>(
  feature: Feature<K, H>,
): Feature<K, H> {
  return feature;
}
