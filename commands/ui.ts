/**
 * Terminal output for commands: results on stdout, progress and hints on stderr, colour decided once
 * (deps.io.colorEnabled), spinners only when stderr is a terminal and --json is off.
 */
import { createRequire } from 'node:module';
import type { ChalkInstance } from 'chalk';
import { colors } from './colors.js';
import type { GlobalOptions, IOStreams } from './io.js';

/** ora costs ~40 ms to load, so it is loaded only when a spinner is really drawn (a terminal). */
type Ora = typeof import('ora').default;
let oraModule: Ora | undefined;
const requireModule = createRequire(import.meta.url);
function loadOra(): Ora {
  // ora is an ES module; Node 20.19+ loads it synchronously through require(esm).
  return (oraModule ??= (requireModule('ora') as { default: Ora }).default);
}

export interface Progress {
  update(text: string): void;
  succeed(text: string): void;
  fail(text: string): void;
  stop(): void;
}

export interface UI {
  /** Colours for stdout text (no-ops when colour is off). */
  c: ChalkInstance;
  /** Colours for stderr text: stderr may be a terminal when stdout is a pipe, or the reverse. */
  ce: ChalkInstance;
  /** A line of result on stdout. */
  out(line: string): void;
  /** One JSON document on stdout (the whole of stdout under --json). */
  json(value: unknown): void;
  /** A line on stderr: progress, notes. */
  info(line: string): void;
  warn(line: string): void;
  hint(line: string): void;
  success(line: string): void;
  progress(text: string): Progress;
}

export function createUI(deps: { io: IOStreams; globals: GlobalOptions }): UI {
  const { io, globals } = deps;
  const c = colors(io.colorEnabled);
  const ce = colors(io.stderrColorEnabled);
  const errLine = (line: string) => io.stderr.write(line + '\n');
  const quiet = globals.json;
  return {
    c,
    ce,
    out: (line) => io.stdout.write(line + '\n'),
    json: (value) => io.stdout.write(JSON.stringify(value) + '\n'),
    info: (line) => errLine(line),
    warn: (line) => errLine(ce.yellow(`Warning: ${line}`)),
    hint: (line) => errLine(ce.dim(`Hint: ${line}`)),
    success: (line) => errLine(`${ce.green('✓')} ${line}`),
    progress(text) {
      // A terminal that reports no width (a bare pty) makes ora redraw forever: use lines there too.
      const columns = (io.stderr as { columns?: number }).columns ?? 0;
      if (quiet || !io.stderrIsTTY || columns <= 0) {
        // No spinner off a terminal: one line per step keeps CI logs readable.
        if (!quiet) errLine(`… ${text}`);
        return {
          update: (t) => { if (!quiet) errLine(`… ${t}`); },
          succeed: (t) => { if (!quiet) errLine(`${ce.green('✓')} ${t}`); },
          fail: (t) => { if (!quiet) errLine(`${ce.red('✗')} ${t}`); },
          stop: () => {},
        };
      }
      const spinner = loadOra()({ text, stream: io.stderr, color: 'cyan', isEnabled: true, discardStdin: false }).start();
      return {
        update: (t) => { spinner.text = t; },
        succeed: (t) => { spinner.succeed(t); },
        fail: (t) => { spinner.fail(t); },
        stop: () => { spinner.stop(); },
      };
    },
  };
}
