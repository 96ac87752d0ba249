/**
 * SignedProgress.run, the one way a command runs a signed step under a spinner: off a terminal each
 * step is a line on stderr, so what a user reads in a CI log is what these tests read.
 */
import { describe, expect, it } from 'vitest';
import { signedProgress } from '../../commands/signed-progress.js';
import { fakeDeps } from '../helpers/fake-deps.js';

describe('SignedProgress.run', () => {
  it('starts, then ends with the success line made from the result', async () => {
    const deps = fakeDeps();
    const result = await signedProgress(deps.ui, deps.signal).run(
      { start: 'Revoking', fail: 'Revocation failed', succeed: (n: number) => `Revoked ${n}` },
      async () => 7,
    );
    expect(result).toBe(7);
    expect(deps.stderr()).toBe('… Revoking\n✓ Revoked 7\n');
  });

  it('ends with the failure line and throws what rethrow makes of the error', async () => {
    const deps = fakeDeps();
    const run = signedProgress(deps.ui, deps.signal).run(
      {
        start: 'Adding',
        fail: (e) => `Adding failed: ${(e as Error).message}`,
        rethrow: () => new Error('with a hint'),
      },
      async () => {
        throw new Error('refused');
      },
    );
    await expect(run).rejects.toThrow('with a hint');
    expect(deps.stderr()).toBe('… Adding\n✗ Adding failed: refused\n');
  });

  it('says Interrupted, not the failure line, after Ctrl-C', async () => {
    const controller = new AbortController();
    const deps = fakeDeps({ signal: controller.signal });
    const run = signedProgress(deps.ui, deps.signal).run({ start: 'Refreshing', fail: 'Refresh failed' }, async () => {
      controller.abort();
      throw new Error('aborted');
    });
    await expect(run).rejects.toThrow('aborted');
    expect(deps.stderr()).toBe('… Refreshing\n✗ Interrupted\n');
  });

  it('ends nothing when the step failed before its hooks started the spinner', async () => {
    const deps = fakeDeps();
    const run = signedProgress(deps.ui, deps.signal).run({ fail: 'Refresh failed' }, async () => {
      throw new Error('no session');
    });
    await expect(run).rejects.toThrow('no session');
    expect(deps.stderr()).toBe('');
  });
});
