/**
 * Whether a process id names a running process, for taking over lock files whose owner died.
 * Signal 0 checks existence without sending anything; EPERM means it exists but is someone else's.
 */
export function processAlive(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch (error) {
    return (error as NodeJS.ErrnoException).code === 'EPERM';
  }
}
