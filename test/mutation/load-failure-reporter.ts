/**
 * A vitest reporter for mutation runs only: a test file that fails without one test having failed
 * (it could not be imported, or a hook before its tests threw) gets one failed test carrying the
 * file's error. Stryker's vitest runner scores a mutant from the tests it collects, so without this
 * a mutant that stops a module from loading would have no failed test and could count as survived.
 */
import type { RunnerTestCase as Test, RunnerTestFile as File } from 'vitest';
import type { Reporter, Vitest } from 'vitest/node';

function tests(suite: { tasks: File['tasks'] }): Test[] {
  return suite.tasks.flatMap((task) => (task.type === 'suite' ? tests(task) : task.type === 'test' ? [task] : []));
}

/** Adds the failed test to every file that failed with no failed test of its own; returns how many. */
export function failUnloadedFiles(files: readonly File[]): number {
  let marked = 0;
  for (const file of files) {
    if (file.result?.state !== 'fail') continue;
    if (tests(file).some((t) => t.result?.state === 'fail')) continue;
    const errors = file.result.errors ?? [{ message: 'the test file failed before any test ran', name: 'Error' }];
    const failed = {
      type: 'test',
      id: `${file.id}_load`,
      name: 'the test file loads and its hooks run',
      mode: 'run',
      file,
      suite: file,
      meta: {},
      timeout: 0,
      annotations: [],
      artifacts: [],
      result: { state: 'fail', errors },
      // vitest types a test's context as something only it builds; nothing reads it once the run is over.
      context: undefined,
    } as unknown as Test;
    file.tasks.push(failed);
    marked += 1;
  }
  return marked;
}

export default class LoadFailureReporter implements Reporter {
  private files: () => File[] = () => [];
  onInit(ctx: Vitest): void {
    this.files = () => ctx.state.getFiles();
  }
  onTestRunEnd(): void {
    failUnloadedFiles(this.files());
  }
}
