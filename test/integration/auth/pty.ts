/**
 * Runs bin/svc.js on a pseudo-terminal via util-linux `script`, so stdin and stdout are TTYs (and
 * CI is unset): the only way to exercise the real prompts and spinner. The test reads the screen
 * and types into it. `stty` gives the terminal a size, as a real one has; without it the
 * terminal reports 0 columns.
 */
import { spawn } from 'node:child_process';
import { tmpdir } from 'node:os';
import { SVC_BIN } from '../../helpers/spawn-svc.js';

const quote = (s: string) => `'${s.replace(/'/g, `'\\''`)}'`;

export interface PtySession {
  /** Everything printed so far (stdout and stderr share the terminal). */
  screen(): string;
  /** Resolves with the index where pattern appears at or after `from`; rejects after 15 s. */
  waitFor(pattern: RegExp, from?: number): Promise<number>;
  type(text: string): void;
  exited: Promise<number | null>;
  kill(): void;
}

export function svcOnPty(args: string[], env: NodeJS.ProcessEnv, size: { cols?: number } = {}): PtySession {
  const command = `stty cols ${size.cols ?? 100} rows 30; ${[process.execPath, SVC_BIN, ...args].map(quote).join(' ')}`;
  const fullEnv = {
    PATH: process.env.PATH,
    HOME: process.env.HOME,
    TMPDIR: tmpdir(),
    TERM: 'xterm',
    NO_COLOR: '1',
    ...env,
  };
  const child = spawn('script', ['-qfec', command, '/dev/null'], { env: fullEnv, stdio: ['pipe', 'pipe', 'pipe'] });
  let screen = '';
  child.stdout.setEncoding('utf8').on('data', (d: string) => (screen += d));
  child.stderr.setEncoding('utf8').on('data', (d: string) => (screen += d));
  const exited = new Promise<number | null>((resolve) => child.on('close', resolve));
  return {
    screen: () => screen,
    async waitFor(pattern, from = 0) {
      const deadline = Date.now() + 15_000;
      for (;;) {
        const at = screen.slice(from).search(pattern);
        if (at >= 0) return from + at;
        if (Date.now() > deadline) throw new Error(`timed out waiting for ${pattern}; screen so far:\n${screen}`);
        await new Promise((r) => setTimeout(r, 25));
      }
    },
    type: (text) => child.stdin.write(text),
    exited,
    kill: () => child.kill('SIGKILL'),
  };
}
