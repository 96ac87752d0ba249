/**
 * What an area of the emulator gives the kernel (see ../features.ts for the list and
 * ../README.md "Adding an area"). Everything is optional except the name.
 */
import type { Authenticator, BasicVerifier } from './auth.js';
import type { EmulatorContext } from './context.js';
import type { Route } from './router.js';
import type { EmulatorFixtures } from './state.js';
import type { TableDef } from './tables.js';

export interface Feature {
  /** Folder name under features/, for messages. */
  name: string;
  /** HTTP routes; paths are below the version segment unless the route says `unversioned`. */
  routes?: readonly Route[];
  /** Tables this area owns; durable ones are saved in the state file under their names. */
  tables?: readonly TableDef<any>[];
  /** Forgets what has no use any more; runs every sweep interval of virtual time. */
  sweep?(emu: EmulatorContext, nowMs: number): void;
  /**
   * Start-up fixtures: given those made so far (by earlier features in the list, or by the last
   * run when a state file is reused), returns this area's ids, creating what is missing or stale.
   */
  fixtures?(emu: EmulatorContext, made: Partial<EmulatorFixtures>): Partial<EmulatorFixtures>;
  /** After the state is loaded and before the first request: rebuild indexes, re-arm timers. */
  resume?(emu: EmulatorContext): void;
  /** Authorization schemes besides Basic that this area answers, by lower-case scheme name. */
  authSchemes?: Readonly<Record<string, Authenticator>>;
  /** HTTP Basic credentials besides the emulator's own (API tokens made with POST /tokens). */
  basicCredentials?: BasicVerifier;
}
