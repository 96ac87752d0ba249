/**
 * The --state file: loaded once at start, saved atomically (temp file + rename, mode 0600: it
 * holds the client secret, private keys and card numbers) whenever something changed. Saves are
 * serialized and coalesced: changes made while a write is in flight produce one more write with
 * the latest snapshot, never a torn file and never an unbounded queue. The snapshot is taken a turn
 * after the change, so everything a handler did synchronously goes into the same write.
 */
import { mkdirSync, readFileSync } from 'node:fs';
import { rename, unlink, writeFile } from 'node:fs/promises';
import { dirname } from 'node:path';
import { randomBytes } from 'node:crypto';

export class StateFile {
  readonly path: string;
  private writing: Promise<void> | undefined;
  private dirty = false;
  private snapshot: () => string = () => '';
  private lastError: unknown;

  constructor(path: string) {
    this.path = path;
  }

  /** The file's text, or undefined when it does not exist yet. */
  read(): string | undefined {
    try {
      return readFileSync(this.path, 'utf8');
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code === 'ENOENT') return undefined;
      throw error;
    }
  }

  /** Tells the file how to get the current state text; call before the first save. */
  bind(snapshot: () => string): void {
    this.snapshot = snapshot;
    mkdirSync(dirname(this.path), { recursive: true });
  }

  /** Marks the state changed; a write follows (after the one in flight, if any). */
  changed(): void {
    this.dirty = true;
    if (!this.writing) this.writing = this.drain();
  }

  /** Resolves once everything changed so far is on disk. Rejects with the last write error. */
  async flush(): Promise<void> {
    while (this.writing) await this.writing;
    if (this.lastError) {
      const error = this.lastError;
      this.lastError = undefined;
      throw error;
    }
  }

  /**
   * Resolves once everything changed so far has been written (or the write failed: flush() reports
   * that). The server awaits it before answering a change, so an acknowledged change survives a
   * SIGKILL of the emulator; saves stay coalesced, so concurrent changes share one write.
   */
  async settled(): Promise<void> {
    while (this.writing) await this.writing;
  }

  private async drain(): Promise<void> {
    try {
      // Snapshot after the current turn, not inside changed(): a handler often marks the state
      // changed and then sets one more field (a quote's transactionId), which must be in the file.
      await new Promise((resolve) => setImmediate(resolve));
      while (this.dirty) {
        this.dirty = false;
        await this.writeAtomically(this.snapshot());
      }
    } catch (error) {
      this.lastError = error;
    } finally {
      this.writing = undefined;
    }
  }

  private async writeAtomically(text: string): Promise<void> {
    const temp = `${this.path}.${process.pid}.${randomBytes(4).toString('hex')}.tmp`;
    try {
      await writeFile(temp, text, { mode: 0o600 });
      await rename(temp, this.path);
    } catch (error) {
      await unlink(temp).catch(() => undefined);
      throw error;
    }
  }
}
