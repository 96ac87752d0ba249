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
import type { RunningEmulator } from '../../src/emulator/index.js';
import { Narrator } from './narrator.js';
import { STEPS, type DemoState } from './steps.js';

export type DemoOptions = OptionsOf<typeof verbs.demo>;

/** What a user runs after the demo: it works on a fresh install, with no configuration. */
export const NEXT_COMMAND = 'svc emulator start --detach';

export async function run(opts: DemoOptions, deps: Deps): Promise<void> {
  const interactive = Boolean(opts.interactive);
  if (interactive && !canPrompt(deps)) {
    throw new UsageError('--interactive needs a terminal to type the code in; run without it to have 000000 entered.', {
      input: '--interactive',
    });
  }
  const ctx = await openDemo(deps, { keep: Boolean(opts.keep), interactive });
  const narrator = new Narrator(deps, ctx.out);
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
    if (opts.keep) await serveUntilInterrupted(narrator, ctx.emulator, deps.signal);
    // The demo's emulator stops with it: the next step is a sandbox of the user's own.
    else narrator.line(`Next: ${NEXT_COMMAND}  (a sandbox that stays up; then \`svc trigger --list\`)`);
  } finally {
    // Also after `svc demo | head` closed stdout (the verb serves: that stops it as Ctrl-C does),
    // so the emulator stops and the temporary store, which holds keys, is deleted.
    await ctx.close();
  }
}

/** --keep: the emulator stays up for hand use until Ctrl-C (the profile points at it). */
function serveUntilInterrupted(narrator: Narrator, emulator: RunningEmulator, signal: AbortSignal): Promise<void> {
  const f = emulator.fixtures;
  narrator.line();
  narrator.line(
    `The emulator keeps running at ${emulator.baseUrl}; profile "${LOCAL_PROFILE}" points at it. Next, in another terminal:`,
  );
  // Full lines, so they run as printed (copied into a script, or with no terminal to prompt on).
  narrator.line(`  svc otp verify --credential ${f.credentialId} --code 000000`);
  narrator.line(`  svc sandbox fund ${f.accountId} --amount 100000`);
  narrator.line('Press Ctrl-C to stop it.');
  if (signal.aborted) return Promise.resolve();
  return new Promise((resolve) => signal.addEventListener('abort', () => resolve(), { once: true }));
}
