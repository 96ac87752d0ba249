/**
 * `svc demo [--interactive] [--keep]`: the whole mission once, against an in-process emulator on a
 * free port, narrated step by step. Exit 0 with a summary, or 1 naming the step that failed. Needs
 * no TTY, no account and no configuration, so `npm ci && npm run demo` works on a fresh clone.
 */
import type { OptionsOf } from '../verb.js';
import type * as verbs from './verbs.js';
import type { Deps } from '../deps.js';
import { canPrompt } from '../deps.js';
import { UsageError } from '../../src/errors.js';
import { LOCAL_PROFILE } from '../config/local-profile.js';
import { openDemo } from './context.js';
import { Narrator } from './narrator.js';
import { STEPS, type DemoState } from './steps.js';

export type DemoOptions = OptionsOf<typeof verbs.demo>;

export async function run(opts: DemoOptions, deps: Deps): Promise<void> {
  const interactive = Boolean(opts.interactive);
  if (interactive && !canPrompt(deps)) {
    throw new UsageError('--interactive needs a terminal to type the code in; run without it to have 000000 entered.', {
      field: '--interactive',
    });
  }
  const ctx = await openDemo(deps, { keep: Boolean(opts.keep), interactive });
  const narrator = new Narrator(deps, ctx.out);
  // `svc demo | head` closes the pipe early: unhandled, that EPIPE would kill the process before
  // the finally below stops the emulator and deletes the temporary store (which holds keys).
  const ignoreClosedPipe = () => {};
  deps.io.stdout.on('error', ignoreClosedPipe);
  try {
    narrator.line(narrator.ui.c.bold(`svc demo: emulator at ${ctx.emulator.baseUrl}`));
    narrator.note(
      ctx.temporary
        ? 'Using a temporary config folder; your profiles are untouched.'
        : `Profile "${LOCAL_PROFILE}" in ${ctx.store.dir} is now current.`,
    );
    const state: DemoState = { interactive };
    for (const [i, step] of STEPS.entries()) {
      await narrator.step(i + 1, STEPS.length, step.title, step.explain, () => step.run(ctx, narrator, state));
    }
    narrator.summary();
    if (deps.globals.json) {
      deps.ui.json({ ok: true, baseUrl: ctx.emulator.baseUrl, steps: narrator.results });
    }
    if (opts.keep) await serveUntilInterrupted(narrator, ctx.emulator.baseUrl, deps.signal);
  } finally {
    await ctx.close();
    deps.io.stdout.off('error', ignoreClosedPipe);
  }
}

/** --keep: the emulator stays up for hand use until Ctrl-C (the profile points at it). */
function serveUntilInterrupted(narrator: Narrator, baseUrl: string, signal: AbortSignal): Promise<void> {
  narrator.line();
  narrator.line(
    `The emulator keeps running at ${baseUrl}; profile "${LOCAL_PROFILE}" points at it, so try \`svc otp verify\` or \`svc sandbox fund\` in another terminal.`,
  );
  narrator.line('Press Ctrl-C to stop it.');
  if (signal.aborted) return Promise.resolve();
  return new Promise((resolve) => signal.addEventListener('abort', () => resolve(), { once: true }));
}
