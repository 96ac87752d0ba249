/**
 * Terminal output for commands: results on stdout, progress and hints on stderr, colour decided once
 * (deps.io.colorEnabled), spinners only when stderr is a terminal and --json is off.
 */
import type { ChalkInstance } from 'chalk';
import { colors } from './colors.js';
import type { GlobalOptions, IOStreams } from './io.js';
import type { JqFilter } from './jq/compile.js';
import { requirePackage } from './require-package.js';

/** The one glyph set: every success and failure mark, whether from a spinner or a plain line. */
const GLYPH = { success: '✓', failure: '✗' } as const;

/** ora is slow to load beside a command's own work: it is loaded only when a spinner is drawn (a terminal). */
type Ora = typeof import('ora').default;
let oraModule: Ora | undefined;
function loadOra(): Ora {
  return (oraModule ??= requirePackage<{ default: Ora }>('ora').default);
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
  /**
   * The width to fit stdout's lines to: COLUMNS when set (as a shell exports it, or a user who wants
   * a width), else the terminal's when stdout is one, else 0 (a pipe: nothing is cut to fit).
   */
  columns: number;
  /** A line of result on stdout. */
  out(line: string): void;
  /** One JSON document on stdout (the whole of stdout under --json). */
  json(value: unknown): void;
  /** A command's result: `value` as JSON under --json, else what `text` prints for people. */
  result<T>(value: T, text: (value: T) => void): void;
  /** A line on stderr: progress, notes. */
  info(line: string): void;
  warn(line: string): void;
  hint(line: string): void;
  success(line: string): void;
  /**
   * Steps of work under way: a spinner on a terminal, else one line a step, none under --json unless
   * `underJson` (a long wait, whose lines on stderr tell a script's reader the run is alive).
   */
  progress(text: string, options?: { underJson?: boolean }): Progress;
}

/** COLUMNS as a positive width, else undefined. */
function columnsFromEnv(env: NodeJS.ProcessEnv | undefined): number | undefined {
  const n = Number(env?.COLUMNS);
  return Number.isInteger(n) && n > 0 ? n : undefined;
}

export function createUI(deps: { io: IOStreams; globals: GlobalOptions; env?: NodeJS.ProcessEnv; jq?: JqFilter }): UI {
  const { io, globals } = deps;
  const c = colors(io.colorEnabled);
  const ce = colors(io.stderrColorEnabled);
  const errLine = (line: string) => io.stderr.write(line + '\n');
  const quiet = globals.json;
  // --jq: every JSON document a command prints goes through the filter (compiled up front by run-verb.ts).
  if (globals.jq !== undefined && deps.jq === undefined) throw new Error('--jq was given but not compiled');
  const jq = globals.jq !== undefined ? deps.jq : undefined;
  const ui: UI = {
    c,
    ce,
    columns: columnsFromEnv(deps.env) ?? (io.stdoutIsTTY ? ((io.stdout as { columns?: number }).columns ?? 0) : 0),
    out: (line) => io.stdout.write(line + '\n'),
    json: (value) => {
      if (jq) for (const line of jq(value)) io.stdout.write(line + '\n');
      else io.stdout.write(JSON.stringify(value) + '\n');
    },
    result: (value, text) => (quiet ? ui.json(value) : text(value)),
    info: (line) => errLine(line),
    warn: (line) => errLine(ce.yellow(`Warning: ${line}`)),
    hint: (line) => errLine(ce.dim(`Hint: ${line}`)),
    success: (line) => errLine(`${ce.green(GLYPH.success)} ${line}`),
    progress(text, options = {}) {
      // A terminal that reports no width (a bare pty) makes ora redraw forever: use lines there too.
      const columns = (io.stderr as { columns?: number }).columns ?? 0;
      if (quiet || !io.stderrIsTTY || columns <= 0) {
        const silent = quiet && !options.underJson;
        // No spinner off a terminal: one line per step keeps CI logs readable.
        if (!silent) errLine(`… ${text}`);
        return {
          update: (t) => {
            if (!silent) errLine(`… ${t}`);
          },
          succeed: (t) => {
            if (!silent) errLine(`${ce.green(GLYPH.success)} ${t}`);
          },
          fail: (t) => {
            if (!silent) errLine(`${ce.red(GLYPH.failure)} ${t}`);
          },
          stop: () => {},
        };
      }
      const spinner = loadOra()({
        text,
        stream: io.stderr,
        // ora colours its frames by itself (its colour library reads --no-color from argv but not NO_COLOR):
        // the spinner follows stderr's colour decision like every other line.
        color: io.stderrColorEnabled ? 'cyan' : false,
        isEnabled: true,
        discardStdin: false,
      }).start();
      return {
        update: (t) => {
          spinner.text = t;
        },
        // ora's own ✔/✖ would make a second glyph set next to ui.success's.
        succeed: (t) => {
          spinner.stopAndPersist({ symbol: ce.green(GLYPH.success), text: t });
        },
        fail: (t) => {
          spinner.stopAndPersist({ symbol: ce.red(GLYPH.failure), text: t });
        },
        stop: () => {
          spinner.stop();
        },
      };
    },
  };
  return ui;
}
