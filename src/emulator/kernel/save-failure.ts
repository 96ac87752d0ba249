/**
 * Why a save of the --state file failed, in words an operator can act on, and the 503 a write gets
 * while saves fail. The cause never quotes the file's text (it holds the client secret and keys).
 */
import { HttpError } from './errors.js';

export interface SaveFailure {
  /** The system's error code (ENOSPC, EFBIG…), or SAVE_FAILED when there is none. */
  code: string;
  /** What went wrong and what fixes it, e.g. "the disk is full (ENOSPC): free some space". */
  cause: string;
}

const CAUSES: Record<string, string> = {
  ENOSPC: 'the disk is full (ENOSPC): free some space',
  EDQUOT: 'the disk quota is used up (EDQUOT): free some space or raise the quota',
  EFBIG: 'the file size limit was reached (EFBIG): raise it (ulimit -f) or start with a new --state file',
  EACCES: 'permission denied (EACCES): let this user write to the folder',
  EPERM: 'operation not permitted (EPERM): let this user write to the folder',
  EROFS: 'the file system is read-only (EROFS)',
  ENOENT: 'its folder no longer exists (ENOENT): create the folder again',
  ENOTDIR: 'a part of its path is not a folder (ENOTDIR)',
  EISDIR: 'a folder is in its place (EISDIR): remove or rename that folder',
  EIO: 'the disk reported an input/output error (EIO)',
  EMFILE: 'too many open files (EMFILE)',
  ENFILE: 'too many open files in the system (ENFILE)',
};

export function describeSaveFailure(error: unknown): SaveFailure {
  const code = (error as NodeJS.ErrnoException | undefined)?.code;
  if (code && CAUSES[code]) return { code, cause: CAUSES[code] };
  const message = error instanceof Error ? error.message : String(error);
  return { code: code ?? 'SAVE_FAILED', cause: code ? `${message} (${code})` : message };
}

/** The one line printed when saving starts to fail: the file, the cause, and what it means for clients. */
export function failureLine(path: string, failure: SaveFailure): string {
  return `svc emulator: cannot save the state file ${path}: ${failure.cause}. Writes answer 503 until a save succeeds; reads keep working.`;
}

export function recoveryLine(path: string): string {
  return `svc emulator: the state file ${path} is saved again; writes resume.`;
}

/**
 * The spec's error body for a write that is not acknowledged. `applied`: the handler ran, so its
 * change is in memory and reaches the file with the next save that succeeds (as a request in flight
 * at a crash may or may not be there); otherwise nothing was done.
 */
export function unsavedError(path: string, failure: SaveFailure, applied: boolean): HttpError {
  const what = applied
    ? 'This change is not acknowledged: it is in memory only and is saved with the next save that succeeds.'
    : 'Nothing was changed.';
  return new HttpError(
    503,
    'SERVICE_UNAVAILABLE',
    `The emulator cannot save its state file ${path}: ${failure.cause}. ${what} Writes resume once a save succeeds; reads keep working.`,
    { details: { stateFile: path, cause: failure.code } },
  );
}
