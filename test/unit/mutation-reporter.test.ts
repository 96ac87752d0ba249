/**
 * The mutation run's guard (test/mutation/load-failure-reporter.ts): a file that failed without a
 * failed test of its own — an import that threw, a beforeAll that threw — gets one failed test, so
 * Stryker's vitest runner, which scores a mutant from collected tests, counts it as killed.
 */
import { describe, expect, it } from 'vitest';
import type { RunnerTestFile } from 'vitest';
import { failUnloadedFiles } from '../mutation/load-failure-reporter.js';

type Tasks = RunnerTestFile['tasks'];
const file = (name: string, state: 'pass' | 'fail', tasks: Tasks = [], errors?: { message: string }[]) =>
  ({
    id: name,
    name,
    type: 'suite',
    tasks,
    result: { state, ...(errors ? { errors } : {}) },
  }) as unknown as RunnerTestFile;
const test = (state: 'pass' | 'fail' | 'skip') =>
  ({ type: 'test', name: state, result: { state } }) as unknown as Tasks[number];

describe('failUnloadedFiles', () => {
  it('gives a file that failed to import one failed test carrying its error', () => {
    const broken = file('broken.test.ts', 'fail', [], [{ message: 'module refused to load' }]);
    expect(failUnloadedFiles([broken])).toBe(1);
    expect(broken.tasks).toHaveLength(1);
    expect(broken.tasks[0]).toMatchObject({
      type: 'test',
      result: { state: 'fail', errors: [{ message: 'module refused to load' }] },
    });
  });

  it('does the same for a file whose hook failed and whose tests were skipped, nested suites included', () => {
    const suite = { type: 'suite', name: 's', tasks: [test('skip'), test('skip')] } as unknown as Tasks[number];
    const hooked = file('hook.test.ts', 'fail', [suite]);
    expect(failUnloadedFiles([hooked])).toBe(1);
    expect(hooked.tasks.at(-1)).toMatchObject({ result: { state: 'fail' } });
  });

  it('leaves passing files and files with a failed test of their own as they are', () => {
    const passing = file('ok.test.ts', 'pass', [test('pass')]);
    const failing = file('red.test.ts', 'fail', [
      { type: 'suite', name: 's', tasks: [test('fail')] } as unknown as Tasks[number],
    ]);
    expect(failUnloadedFiles([passing, failing])).toBe(0);
    expect(passing.tasks).toHaveLength(1);
    expect(failing.tasks).toHaveLength(1);
  });
});
