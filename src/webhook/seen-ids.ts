/** The ids a webhook receiver has processed: what the receiver asks, and what memory or a file (seen-file.ts) answers. */
export interface SeenIds {
  has(id: string): boolean;
  /**
   * Marks a processed id. In memory only: done at once, returns undefined (nothing to wait for).
   * With a store: resolves once the id is on disk; `has(id)` turns true at that moment. Rejects if
   * the write or fsync failed (the caller must then not acknowledge the delivery).
   */
  record(id: string): Promise<void> | undefined;
  readonly size: number;
  /** Resolves when everything recorded so far is on disk. */
  flush(): Promise<void>;
  /** Flushes, then releases the store file. */
  close(): Promise<void>;
}
