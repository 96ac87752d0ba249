/**
 * What a command writes to and the global flags it obeys: the part of Deps that output needs
 * (commands/ui.ts), kept apart so deps.ts and ui.ts do not import each other.
 */
import type { Readable, Writable } from 'node:stream';

export type { GlobalOptions } from './global-flags.js';

export interface IOStreams {
  stdin: Readable;
  stdout: Writable;
  stderr: Writable;
  stdinIsTTY: boolean;
  stdoutIsTTY: boolean;
  stderrIsTTY: boolean;
  /** Colour on stdout, decided once from --no-color, NO_COLOR, FORCE_COLOR and whether stdout is a TTY. */
  colorEnabled: boolean;
  /** The same decision for stderr, which may be a terminal when stdout is not (or the reverse). */
  stderrColorEnabled: boolean;
}
