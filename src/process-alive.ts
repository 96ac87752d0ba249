/**
 * Whether a process id names a running process, for taking over lock files whose owner died and for
 * `svc emulator stop` waiting for the emulator to exit. Signal 0 checks existence without sending
 * anything; EPERM means it exists but is someone else's. A process that has exited but was not yet
 * reaped (a zombie) still answers signal 0: a detached emulator's parent is init, and in containers
 * and micro-VMs init may reap seconds late, so on Linux /proc says whether it is a zombie.
 */
import { readFileSync } from 'node:fs';

/** True when /proc says the process has exited and awaits reaping (state Z); false where /proc is absent. */
function isZombie(pid: number): boolean {
  try {
    // "pid (comm) S …": the command name may hold spaces and parentheses, so the state follows the last ')'.
    const stat = readFileSync(`/proc/${pid}/stat`, 'utf8');
    return stat.charAt(stat.lastIndexOf(')') + 2) === 'Z';
  } catch {
    return false;
  }
}

export function processAlive(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return !isZombie(pid);
  } catch (error) {
    return (error as NodeJS.ErrnoException).code === 'EPERM';
  }
}
