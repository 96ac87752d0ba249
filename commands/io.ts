/**
 * What a command writes to and the global flags it obeys: the part of Deps that output needs
 * (commands/ui.ts), kept apart so deps.ts and ui.ts do not import each other.
 */
import type { Readable, Writable } from 'node:stream';

/** Global flags, after commander parsed them (README "Configuration"). */
export interface GlobalOptions {
  profile?: string;
  baseUrl?: string;
  json: boolean;
  /** false when --no-input was given. */
  input: boolean;
  yes: boolean;
  verbose: boolean;
  /** false when --no-color was given. */
  color: boolean;
  /** --jq: a jq expression applied to the --json output (json is true then). */
  jq?: string;
  /** --timeout: seconds before an HTTP request is given up (else SERVICE_TIMEOUT, else the client's default). */
  timeout?: string;
  /** --allow-insecure-http: credentials may go over plain http:// to a host that is not this machine. */
  allowInsecureHttp?: boolean;
}

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
