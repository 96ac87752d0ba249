/**
 * Headings, notes and the final summary of `svc demo`, plus the step runner: each step is timed,
 * and a failure is rendered in full (code, message, field errors) and then rethrown as one error
 * that names the step, so the exit code is 1 and the last line says where the walk stopped.
 */
import type { Writable } from 'node:stream';
import type { Deps } from '../deps.js';
import { createUI, type UI } from '../ui.js';
import { renderError } from '../render-error.js';
import { InterruptedError, SvcError } from '../../src/errors.js';
import { isPromptAbort } from '../exit-codes.js';
import { alignColumns } from '../table.js';

export class DemoStepError extends SvcError {
  constructor(
    readonly step: string,
    cause: unknown,
  ) {
    const why = cause instanceof Error ? cause.message : String(cause);
    super(`Demo step "${step}" failed: ${why}`, { cause, hint: 'Run `svc demo --verbose` to see each request.' });
  }
}

export interface StepResult {
  title: string;
  ms: number;
}

export class Narrator {
  readonly ui: UI;
  readonly results: StepResult[] = [];

  constructor(
    private readonly deps: Deps,
    out: Writable,
  ) {
    this.ui = createUI({ io: { ...deps.io, stdout: out }, globals: { ...deps.globals, json: false }, jq: deps.jq });
  }

  line(text = ''): void {
    this.ui.out(text);
  }

  note(text: string): void {
    this.ui.out(this.ui.c.dim(`  ${text}`));
  }

  async step(index: number, total: number, title: string, explain: string, body: () => Promise<void>): Promise<void> {
    const { c } = this.ui;
    this.line();
    this.line(c.bold.cyan(`━━ Step ${index}/${total}: ${title} ━━`));
    this.note(explain);
    const started = performance.now();
    try {
      await body();
    } catch (error) {
      // Ctrl-C is not a failure of the step: the CLI reports the interruption itself (exit 130). At a
      // prompt the terminal is raw, so Ctrl-C reaches the prompt as a key, not the process as SIGINT.
      if (this.deps.signal.aborted || isPromptAbort(error) || error instanceof InterruptedError) throw error;
      this.line(c.red(`✗ ${title} failed`));
      renderError(error, {
        stderr: this.deps.io.stderr,
        json: false,
        verbose: this.deps.globals.verbose,
        color: this.deps.io.stderrColorEnabled,
      });
      throw new DemoStepError(title, error);
    }
    const ms = Math.round(performance.now() - started);
    this.results.push({ title, ms });
    this.line(c.green(`✓ ${title}`) + c.dim(` (${ms} ms)`));
  }

  summary(): void {
    const { c } = this.ui;
    this.line();
    this.line(c.bold('Summary'));
    const rows = alignColumns(this.results.map((r) => [r.title, c.dim(`${r.ms} ms`)]));
    for (const row of rows) this.line(`  ${c.green('✓')} ${row}`);
    const total = this.results.reduce((sum, r) => sum + r.ms, 0);
    this.line(c.bold(`All ${this.results.length} steps passed in ${(total / 1000).toFixed(1)} s.`));
  }
}
