/**
 * The test run's temporary folders (test/helpers/private-tmpdir.ts, temp-dir.ts): the run has a
 * TMPDIR of its own, which spawned CLIs get too; folders made with tempDir() go when their file is
 * done; anything else left there fails the run, named, and the folder is removed all the same.
 */
import { spawnSync } from 'node:child_process';
import { existsSync, mkdirSync, readdirSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, it, vi } from 'vitest';
import setupPrivateTmpdir, { leftovers } from '../../helpers/private-tmpdir.js';
import { REPO_ROOT, svcEnv } from '../../helpers/spawn-svc.js';
import { tempDir } from '../../helpers/temp-dir.js';

afterEach(() => {
  vi.restoreAllMocks();
});

describe('the test run’s temporary folder', () => {
  it('is where tests and the CLIs they spawn make folders', () => {
    // This run's own (made by the global set-up), not the shared one.
    expect(tmpdir()).toMatch(/svc-test-run-\d+-\w+$/);
    expect(tempDir().startsWith(tmpdir())).toBe(true);
    expect(svcEnv(tempDir()).TMPDIR).toBe(tmpdir());
  });

  it('after the run: leftovers fail it, each named; svc’s own code caches do not; the folder goes', () => {
    const outer = tempDir('svc-outer-');
    const before = { tmp: process.env.TMPDIR, exitCode: process.exitCode };
    const errors: string[] = [];
    vi.spyOn(console, 'error').mockImplementation((text: string) => void errors.push(text));
    process.env.TMPDIR = outer;
    let teardown: () => void;
    try {
      teardown = setupPrivateTmpdir();
    } finally {
      // setup() points TMPDIR at the folder it made; this worker keeps its own.
      process.env.TMPDIR = before.tmp;
    }
    const [own] = readdirSync(outer);
    const dir = join(outer, own!);
    expect(leftovers(dir)).toEqual([]);
    mkdirSync(join(dir, `svc-compile-cache-${process.getuid?.()}`));
    mkdirSync(join(dir, 'node-compile-cache'));
    expect(leftovers(dir)).toEqual([]);
    mkdirSync(join(dir, 'svc-test-abc'));
    writeFileSync(join(dir, 'svc-test-abc', 'session.key'), 'a key');
    writeFileSync(join(dir, 'stray.json'), '{}');
    try {
      teardown();
      expect(process.exitCode).toBe(1);
    } finally {
      process.exitCode = before.exitCode;
      process.env.TMPDIR = before.tmp;
    }
    expect(errors.join('\n')).toContain(join(dir, 'svc-test-abc'));
    expect(errors.join('\n')).toContain(join(dir, 'stray.json'));
    expect(errors.join('\n')).not.toContain('compile-cache');
    expect(existsSync(dir)).toBe(false);
  });

  it('a vitest run whose test leaves a folder behind fails naming it; tempDir() folders are gone', () => {
    const outer = tempDir('svc-outer-');
    const env = Object.fromEntries(Object.entries(process.env).filter(([name]) => !name.startsWith('VITEST')));
    const run = spawnSync(
      process.execPath,
      ['node_modules/vitest/vitest.mjs', 'run', '--config', 'test/unit/test-helpers/fixtures/vitest.config.ts'],
      { cwd: REPO_ROOT, env: { ...env, TMPDIR: outer, NO_COLOR: '1' }, encoding: 'utf8', timeout: 60_000 },
    );
    const output = run.stdout + run.stderr;
    expect(output).toMatch(/1 passed/);
    expect(run.status, output).toBe(1);
    const named = output.split('\n').filter((line) => line.includes(outer));
    expect(named, output).toHaveLength(1);
    expect(named[0]).toMatch(/svc-test-run-\d+-\w+\/fixture-leak-\w+$/);
    expect(readdirSync(outer)).toEqual([]);
  });
});
