import { SvcError } from '../errors.js';

/** A store file that cannot be used as it is. Names the file, so the user can fix or remove it. */
export class StoreError extends SvcError {
  readonly file: string;
  constructor(file: string, message: string, options?: { hint?: string; cause?: unknown }) {
    super(message, {
      hint: options?.hint ?? `Fix or delete ${file}; what is needed is created again.`,
      cause: options?.cause,
    });
    this.file = file;
  }
}
