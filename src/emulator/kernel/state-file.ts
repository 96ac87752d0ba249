/**
 * The --state file. One emulator a file: `<file>.lock` (src/lock-file.ts) is held from before the
 * file is read until the emulator stops, and a dead holder's lock is taken over.
 *
 * A write is acknowledged only once it is on disk: the server awaits `saved()` before answering.
 * A save writes a temp file (mode 0600: it holds the client secret, private keys and card numbers),
 * fsyncs it, renames it over the file and fsyncs the folder, so a power cut or a kill -9 leaves the
 * old file or the new one, never a torn one. Saves are group commits: changes made while one is in
 * flight wait for the next, which carries all of them, so the write path costs one save per round,
 * not one per request.
 *
 * When a save fails (disk full, file size limit) the requests it covered answer 503, one line goes
 * to stderr, and until a save succeeds each write first tries one (`writable()`), answering 503
 * without doing anything when it fails too. Reads are untouched.
 */
import { randomBytes } from 'node:crypto';
import { mkdirSync, readFileSync, statSync } from 'node:fs';
import { open, rename, unlink } from 'node:fs/promises';
import { dirname } from 'node:path';
import { StopFailedError, SvcError, UsageError } from '../../errors.js';
import { tryLockFile } from '../../lock-file.js';
import { describeSaveFailure, failureLine, recoveryLine, type SaveFailure, unsavedError } from './save-failure.js';

interface Waiter {
  /** Resolved once the file holds this many changes. */
  upTo: number;
  /** Only an attempt numbered this or later settles it (a write probing a failed file wants a new one). */
  fromAttempt: number;
  resolve(): void;
  reject(failure: SaveFailure): void;
}

/** Key in `unsaved` of changes not made through a table (records changed in place, the webhook outbox). */
const IN_PLACE = 'other state';

export class StateFile {
  readonly path: string;
  private readonly warn: (line: string) => void;
  private readonly unlock: () => void;
  private snapshot: () => string = () => '';
  /** Changes made so far, changes the file holds, and changes the latest attempt covered. */
  private changes = 0;
  private savedUpTo = 0;
  private attemptedUpTo = 0;
  private attempts = 0;
  private probe = false;
  /** Saves failing and recovering are announced once the emulator serves (a failed start says why itself). */
  private serving = false;
  private saving: Promise<void> | undefined;
  private failure: SaveFailure | undefined;
  private readonly waiters = new Set<Waiter>();
  /** What changed since the last save that succeeded, by table: the ids (what a failed stop reports). */
  private unsaved = new Map<string, Set<string>>();

  /**
   * Claims the file for this process: refuses a folder, and a file another live emulator holds
   * (SvcError, exit 1, naming the holder's pid). `warn` prints one line for the operator.
   */
  constructor(path: string, warn: (line: string) => void) {
    this.path = path;
    this.warn = warn;
    refuseFolder(path);
    mkdirSync(dirname(path), { recursive: true });
    const lock = tryLockFile(`${path}.lock`);
    if (!lock.acquired) {
      const holder = lock.owner === undefined ? 'another emulator' : `another emulator (pid ${lock.owner})`;
      throw new SvcError(`The state file ${path} is in use by ${holder}`, {
        reason: 'STATE_FILE_IN_USE',
        hint: `Stop that emulator first, or give this one another --state file. If no emulator is running, delete ${path}.lock.`,
      });
    }
    this.unlock = lock.release;
  }

  /** The file's text, or undefined when it does not exist yet. A file that cannot be read is a UsageError. */
  read(): string | undefined {
    try {
      return readFileSync(this.path, 'utf8');
    } catch (error) {
      const code = (error as NodeJS.ErrnoException).code;
      if (code === 'ENOENT') return undefined;
      throw new UsageError(`Cannot read the state file ${this.path}: ${describeSaveFailure(error).cause}`, {
        input: '--state',
        reason: 'STATE_FILE_UNREADABLE',
        hint: 'Let this user read the file, or point --state at another file.',
      });
    }
  }

  /** Tells the file how to get the current state text; call before the first change. */
  bind(snapshot: () => string): void {
    this.snapshot = snapshot;
  }

  /** Lets another emulator take the file (a start that failed after the lock was taken). */
  release(): void {
    this.unlock();
  }

  /** Marks the state changed (`table`/`id`: what changed, for the report of a stop that could not save). */
  changed(table = IN_PLACE, id?: string): void {
    this.changes++;
    let ids = this.unsaved.get(table);
    if (!ids) this.unsaved.set(table, (ids = new Set()));
    if (id !== undefined) ids.add(id);
    this.kick();
  }

  /**
   * Resolves once every change made so far is in the file; rejects with the 503 when the save that
   * carried them failed. The server awaits it before acknowledging a write.
   */
  async saved(): Promise<void> {
    const failure = await this.waitFor(this.changes, 0);
    if (failure) throw unsavedError(this.path, failure, true);
  }

  /** Before a write: while saves fail, tries one; refuses the write (503, nothing done) when it fails too. */
  async writable(): Promise<void> {
    if (!this.failure) return;
    this.probe = true;
    // An attempt already in flight may have snapshotted before this request: wait for a new one.
    const failure = await this.waitFor(this.changes, this.attempts + 1);
    if (failure) throw unsavedError(this.path, failure, false);
  }

  /** At start, once the fixtures are made: saves them, or throws why the file cannot be saved. */
  async saveAtStart(): Promise<void> {
    this.probe = true;
    const failure = await this.waitFor(this.changes, this.attempts + 1);
    if (failure) {
      throw new SvcError(`Cannot save the state file ${this.path}: ${failure.cause}`, {
        reason: 'STATE_NOT_SAVED',
        hint: 'Fix that, or point --state at a file on another disk.',
      });
    }
    this.serving = true;
  }

  /**
   * The last save, at stop: the file then holds everything, or this throws an error saying what was
   * not saved and why. The lock is released either way.
   */
  async close(): Promise<void> {
    try {
      this.probe = true;
      const failure = await this.waitFor(this.changes, this.attempts + 1);
      if (failure) {
        throw new StopFailedError(`The emulator stopped without saving ${this.describeUnsaved()} to ${this.path}`, {
          reason: 'STATE_NOT_SAVED',
          hint: `The last save failed: ${failure.cause}. The file holds the state of the last save that succeeded.`,
        });
      }
    } finally {
      this.unlock();
    }
  }

  private waitFor(upTo: number, fromAttempt: number): Promise<SaveFailure | undefined> {
    if (this.savedUpTo >= upTo && fromAttempt <= this.attempts) return Promise.resolve(undefined);
    return new Promise((resolve) => {
      this.waiters.add({ upTo, fromAttempt, resolve: () => resolve(undefined), reject: resolve });
      // Changes an attempt already covered and failed to save get another attempt, not a wait for one.
      if (!this.saving && this.changes <= this.attemptedUpTo) this.probe = true;
      this.kick();
    });
  }

  private kick(): void {
    this.saving ??= this.saveWhileNeeded();
  }

  private async saveWhileNeeded(): Promise<void> {
    try {
      // Snapshot after the current turn, not inside changed(): a handler often marks the state
      // changed and then sets one more field (a quote's transactionId), which must be in the file.
      await new Promise((resolve) => setImmediate(resolve));
      while (this.changes > this.attemptedUpTo || this.probe) {
        this.probe = false;
        await this.attempt();
      }
    } finally {
      this.saving = undefined;
    }
  }

  private async attempt(): Promise<void> {
    const upTo = this.changes;
    const attempt = ++this.attempts;
    this.attemptedUpTo = upTo;
    const carried = this.unsaved;
    this.unsaved = new Map();
    let failure: SaveFailure | undefined;
    try {
      await writeDurably(this.path, this.snapshot());
      this.savedUpTo = Math.max(this.savedUpTo, upTo);
      if (this.failure && this.serving) this.warn(recoveryLine(this.path));
      this.failure = undefined;
    } catch (error) {
      failure = describeSaveFailure(error);
      for (const [table, ids] of carried) {
        const now = this.unsaved.get(table);
        if (now) for (const id of ids) now.add(id);
        else this.unsaved.set(table, ids);
      }
      if (!this.failure && this.serving) this.warn(failureLine(this.path, failure));
      this.failure = failure;
    }
    for (const waiter of this.waiters) {
      if (attempt < waiter.fromAttempt) continue;
      if (!failure && this.savedUpTo >= waiter.upTo) waiter.resolve();
      else if (failure && waiter.upTo <= upTo) waiter.reject(failure);
      else continue;
      this.waiters.delete(waiter);
    }
  }

  /** "3 changes to customers (Customer:…, …) and the emulator settings": what the file lacks. */
  private describeUnsaved(): string {
    const parts = [...this.unsaved].map(([table, ids]) => {
      if (ids.size === 0) return table;
      const shown = [...ids].slice(0, 3).join(', ');
      return `${table} (${ids.size === 1 ? shown : `${ids.size} records: ${shown}${ids.size > 3 ? ', …' : ''}`})`;
    });
    return parts.length === 0 ? 'the latest changes' : `the changes to ${parts.join(', ')}`;
  }
}

function refuseFolder(path: string): void {
  let folder = false;
  try {
    folder = statSync(path).isDirectory();
  } catch {
    return; // absent (a new file) or unreadable: read() says which
  }
  if (folder) {
    throw new UsageError(`The state file ${path} is a folder`, {
      input: '--state',
      reason: 'STATE_FILE_IS_FOLDER',
      hint: `Point --state at a file, e.g. ${path.replace(/\/+$/, '')}/state.json.`,
    });
  }
}

/** Temp file, fsync, rename over the file, fsync of the folder: the new text is on disk when this resolves. */
async function writeDurably(path: string, text: string): Promise<void> {
  const temp = `${path}.${process.pid}.${randomBytes(4).toString('hex')}.tmp`;
  const file = await open(temp, 'wx', 0o600);
  try {
    await file.writeFile(text);
    await file.sync();
    await file.close();
    await rename(temp, path);
  } catch (error) {
    await file.close().catch(() => undefined);
    await unlink(temp).catch(() => undefined);
    throw error;
  }
  const folder = await open(dirname(path), 'r');
  try {
    await folder.sync();
  } finally {
    await folder.close();
  }
}
