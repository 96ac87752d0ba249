/** Spawns store-child.mjs processes against the built dist/ store and releases them together. */
import { spawn, type ChildProcess } from 'node:child_process';
import { fileURLToPath, pathToFileURL } from 'node:url';

const ROOT = fileURLToPath(new URL('../../..', import.meta.url));
const CHILD = fileURLToPath(new URL('./fixtures/store-child.mjs', import.meta.url));
const STORE_MODULE = pathToFileURL(`${ROOT}dist/src/store/index.js`).href;

export interface Child {
  proc: ChildProcess;
  output: () => string;
  exited: Promise<number | null>;
}

export function spawnChild(dir: string, mode: string, index: number): Child {
  const proc = spawn(process.execPath, [CHILD, STORE_MODULE, dir, mode, String(index)], {
    stdio: ['pipe', 'pipe', 'pipe'],
  });
  let out = '';
  proc.stdout!.on('data', (d: Buffer) => (out += d.toString()));
  proc.stderr!.on('data', (d: Buffer) => (out += d.toString()));
  const exited = new Promise<number | null>((resolve) => proc.on('exit', (code) => resolve(code)));
  return { proc, output: () => out, exited };
}

async function waitFor(child: Child, text: string): Promise<void> {
  while (!child.output().includes(text)) {
    if (child.proc.exitCode !== null) throw new Error(`child exited early: ${child.output()}`);
    await new Promise((r) => setTimeout(r, 10));
  }
}

/** Starts n children, waits until each is ready, then says "go" to all at once; resolves with their exit codes. */
export async function runTogether(
  dir: string,
  mode: string,
  n: number,
): Promise<{ codes: (number | null)[]; outputs: string[] }> {
  const children = Array.from({ length: n }, (_, i) => spawnChild(dir, mode, i));
  await Promise.all(children.map((c) => waitFor(c, 'ready')));
  for (const c of children) c.proc.stdin!.end('go\n');
  const codes = await Promise.all(children.map((c) => c.exited));
  return { codes, outputs: children.map((c) => c.output()) };
}

export { waitFor };
