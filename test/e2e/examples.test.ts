/**
 * Every example a user can copy runs. The `svc …` lines of README.md's shell
 * blocks and the `$ …` lines of every help screen (gathered from the built CLI by walking the
 * command tree) run in bash against one emulator, placeholders filled with real ids; a broken
 * example fails the build. How a particular example runs (its own resource, a terminal for a
 * prompt, a server's bounded run, an exclusion with its reason) is in examples/cases.ts.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { allExamples, type Example } from './examples/extract.js';
import { CASES, type Case } from './examples/cases.js';
import { PLACEHOLDERS, VARIABLES } from './examples/values.js';
import { runLine, runOnTerminal, runServer, type ShellResult } from './examples/shell.js';
import { World } from './examples/world.js';
import { tempConfigDir } from '../helpers/spawn-svc.js';

const world = new World();
let examples: Example[] = [];
let helpWithout: string[] = [];

beforeAll(async () => {
  [{ examples, helpWithout }] = await Promise.all([allExamples(), world.start()]);
  for (const [name, value] of Object.entries(VARIABLES)) world.values[name] = await value(world);
}, 180_000);
afterAll(() => world.stop(), 60_000);

/** `SIG` in a case's values is the shell variable $SIG; anything else is text of the line. */
const isVariable = (name: string) => /^[A-Z_]+$/.test(name);

/** The line with every placeholder replaced; throws naming one that has no stand-in. */
async function filled(line: string, c: Case): Promise<string> {
  let out = line;
  const own = Object.entries(c.values ?? {}).filter(([name]) => !isVariable(name));
  for (const [placeholder, value] of [...own, ...PLACEHOLDERS]) {
    while (out.includes(placeholder)) {
      const text = await value(world);
      out = out.replace(placeholder, () => text);
    }
  }
  const left = /<[a-z][\w ]*>|…/i.exec(out);
  if (left) throw new Error(`no stand-in for ${left[0]} in: ${line} (add one to PLACEHOLDERS or the example's case)`);
  return out;
}

async function run(example: Example): Promise<ShellResult> {
  const c = CASES[example.line] ?? {};
  await c.before?.(world);
  const line = await filled(example.line, c);
  const own = c.ownConfig ? tempConfigDir() : undefined;
  const variables: Record<string, string> = {};
  for (const [name, value] of Object.entries(c.values ?? {}))
    if (isVariable(name)) variables[name] = await value(world);
  const shell = world.shell(own);
  Object.assign(shell.env, variables);
  const result = c.terminal
    ? await runOnTerminal(shell, line, c.terminal)
    : c.server
      ? await runServer(shell, line.replace(/\s*&$/, ''), c.server, () => c.during?.(world) ?? Promise.resolve())
      : await runLine(shell, line, c.stdin);
  for (const after of c.after ?? []) await runLine(shell, after);
  return result;
}

/** SVC_EXAMPLES=<regex> runs only the matching examples (while fixing one). */
const chosen = (line: string) => !process.env.SVC_EXAMPLES || new RegExp(process.env.SVC_EXAMPLES).test(line);

/** At most this many examples at once: each is a process or two on a shared machine. */
const PARALLEL = 4;
let running = 0;
const waiting: (() => void)[] = [];
async function slot<T>(work: () => Promise<T>): Promise<T> {
  if (running >= PARALLEL) await new Promise<void>((resolve) => waiting.push(resolve));
  running++;
  try {
    return await work();
  } finally {
    running--;
    waiting.shift()?.();
  }
}

/** Runs one example; a failure is one readable paragraph: the line, where it is printed, what it said. */
async function check(example: Example): Promise<string | undefined> {
  const c = CASES[example.line] ?? {};
  let r: ShellResult;
  const started = Date.now();
  try {
    r = await run(example);
    // SVC_EXAMPLES_TIMES=1 prints what each took (to find the ones that make the suite slow).
    if (process.env.SVC_EXAMPLES_TIMES) console.log(`${Date.now() - started} ms  ${example.line}`);
  } catch (error) {
    return `${example.line}  (${example.where.join(', ')}): ${error instanceof Error ? error.message : String(error)}`;
  }
  const expected = c.exit ?? 0;
  const wrongOutput = c.output !== undefined && !c.output.test(r.stdout + r.stderr);
  if (r.code === expected && !wrongOutput) return undefined;
  const tail = (s: string) => s.trim().split('\n').slice(-6).join('\n    ');
  return [
    `${example.line}  (${example.where.join(', ')})`,
    `  exit ${r.code}, expected ${expected}${wrongOutput ? `; output does not match ${c.output}` : ''}`,
    `  stdout: ${tail(r.stdout)}`,
    `  stderr: ${tail(r.stderr)}`,
  ].join('\n');
}

describe('the examples', () => {
  it('are found: README lines, and one or more in every verb help', () => {
    expect(helpWithout).toEqual([]);
    expect(examples.filter((e) => e.where.some((w) => w.startsWith('README.md'))).length).toBeGreaterThan(30);
    expect(examples.length).toBeGreaterThan(150);
    // A case for an example that no longer exists is stale: its line changed.
    const lines = new Set(examples.map((e) => e.line));
    expect(Object.keys(CASES).filter((line) => !lines.has(line))).toEqual([]);
  });

  it('run in parallel, each exiting as expected', async () => {
    const parallel = examples.filter((e) => !CASES[e.line]?.serial && !CASES[e.line]?.skip && chosen(e.line));
    const failures: string[] = [];
    await Promise.all(
      parallel.map((e) =>
        slot(async () => {
          const failure = await check(e);
          if (failure) failures.push(failure);
        }),
      ),
    );
    expect(failures.join('\n\n')).toBe('');
  }, 600_000);

  it('run one at a time where order or shared state matters', async () => {
    const serial = Object.keys(CASES).filter((line) => CASES[line]!.serial && !CASES[line]!.skip && chosen(line));
    const failures: string[] = [];
    for (const line of serial) {
      const failure = await check(examples.find((e) => e.line === line)!);
      if (failure) failures.push(failure);
    }
    expect(failures.join('\n\n')).toBe('');
  }, 600_000);

  it('excluded ones each say why', () => {
    const skipped = Object.entries(CASES).filter(([, c]) => c.skip !== undefined);
    for (const [, c] of skipped) expect(c.skip!.length).toBeGreaterThan(20);
  });
});
