/**
 * Notices that stdout's reader went away (`svc --json webhook listen | head -1`) while nothing is
 * being written, so the listener stops within a second or two instead of at its next delivery.
 *
 * GNU `tail -f` polls its output for POLLERR; node has no poll(2) of a descriptor, and on a pipe a
 * zero-length write always succeeds (Linux answers it before looking for a reader). So:
 * - a pipe: a GNU `tail -f --pid=<us> /dev/null` shares our stdout and does the polling. It writes
 *   nothing; once the reader is gone it dies of SIGPIPE, which is the news. `--pid` ends it within
 *   its one-second interval if we die without stopping it.
 * - a socket (a parent process's stdio "pipe" is a socketpair): a zero-length write fails with
 *   EPIPE once the peer has closed, so a one-second check writes nothing and asks the kernel.
 * - a terminal or a file has no reader to lose.
 * Where none of this works (no GNU tail: BSD's refuses --pid), the next delivery's write fails and
 * stops the listener (commands/main.ts), its delivery answered with an error.
 */
import { spawn } from 'node:child_process';
import { fstatSync, writeSync } from 'node:fs';

const CHECK_MS = 1000;
const EMPTY = Buffer.alloc(0);

/** Calls `onGone` once when stdout (fd 1) loses its reader; returns the stop function. */
export function watchStdoutReader(onGone: (why: string) => void): () => void {
  let kind: 'pipe' | 'socket' | undefined;
  try {
    const stat = fstatSync(1);
    kind = stat.isFIFO() ? 'pipe' : stat.isSocket() ? 'socket' : undefined;
  } catch {
    return () => {};
  }
  if (kind === 'pipe') return watchPipe(onGone);
  if (kind === 'socket') return watchSocket(onGone);
  return () => {};
}

function watchPipe(onGone: (why: string) => void): () => void {
  let stopped = false;
  const tail = spawn('tail', ['-f', `--pid=${process.pid}`, '-s', '1', '/dev/null'], {
    stdio: ['ignore', 'inherit', 'ignore'],
    env: { PATH: process.env.PATH ?? '/usr/bin:/bin', LC_ALL: 'C' },
  });
  tail.on('error', () => {}); // no tail here: the next delivery's write is the check
  tail.on('exit', (code, signal) => {
    // 141: a shell's way of saying SIGPIPE, should tail be a wrapper script.
    if (!stopped && (signal === 'SIGPIPE' || code === 141)) onGone('its reader closed the pipe');
  });
  tail.unref();
  return () => {
    stopped = true;
    if (tail.exitCode === null && tail.signalCode === null) tail.kill();
  };
}

function watchSocket(onGone: (why: string) => void): () => void {
  const timer = setInterval(() => {
    try {
      writeSync(1, EMPTY);
    } catch (error) {
      const code = (error as NodeJS.ErrnoException).code;
      if (code !== 'EPIPE' && code !== 'ECONNRESET' && code !== 'ENOTCONN') return;
      clearInterval(timer);
      onGone(`its reader closed the socket (${code})`);
    }
  }, CHECK_MS);
  timer.unref();
  return () => clearInterval(timer);
}
