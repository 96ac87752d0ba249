/**
 * Terminal output for commands: results on stdout, progress and hints on stderr, colour decided once
 * (deps.io.colorEnabled), spinners only when stderr is a terminal and --json is off.
 */
import { Chalk, type ChalkInstance } from 'chalk';
import ora from 'ora';
import type { Deps } from './deps.js';

export interface Progress {
  update(text: string): void;
  succeed(text: string): void;
  fail(text: string): void;
  stop(): void;
}

export interface UI {
  /** Colours for stdout text (no-ops when colour is off). */
  c: ChalkInstance;
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

export function createUI(deps: Pick<Deps, 'io' | 'globals'>): UI {
  const { io, globals } = deps;
  const c = new Chalk({ level: io.colorEnabled ? 1 : 0 });
  const errLine = (line: string) => io.stderr.write(line + '\n');
  const quiet = globals.json;
  return {
    c,
    out: (line) => io.stdout.write(line + '\n'),
    json: (value) => io.stdout.write(JSON.stringify(value) + '\n'),
    info: (line) => errLine(line),
    warn: (line) => errLine(c.yellow(`Warning: ${line}`)),
    hint: (line) => errLine(c.dim(`Hint: ${line}`)),
    success: (line) => errLine(`${c.green('✓')} ${line}`),
    progress(text) {
      if (quiet || !io.stderrIsTTY) {
        // No spinner off a terminal: one line per step keeps CI logs readable.
        if (!quiet) errLine(`… ${text}`);
        return {
          update: (t) => { if (!quiet) errLine(`… ${t}`); },
          succeed: (t) => { if (!quiet) errLine(`${c.green('✓')} ${t}`); },
          fail: (t) => { if (!quiet) errLine(`${c.red('✗')} ${t}`); },
          stop: () => {},
        };
      }
      const spinner = ora({ text, stream: io.stderr, color: 'cyan', isEnabled: true, discardStdin: false }).start();
      return {
        update: (t) => { spinner.text = t; },
        succeed: (t) => { spinner.succeed(t); },
        fail: (t) => { spinner.fail(t); },
        stop: () => { spinner.stop(); },
      };
    },
  };
}
