/**
 * A bounded set of delivery ids, oldest evicted first. A JS Set iterates in insertion order, so the
 * first value is always the least recently inserted (or touched) id: O(1) insert, lookup and eviction.
 */
export class SeenSet {
  private readonly ids = new Set<string>();

  constructor(readonly capacity: number) {
    if (!Number.isInteger(capacity) || capacity < 1) throw new RangeError('capacity must be a positive integer');
  }

  get size(): number {
    return this.ids.size;
  }

  has(id: string): boolean {
    return this.ids.has(id);
  }

  /** Marks an id as the most recent; evicts the oldest when over capacity. */
  add(id: string): void {
    this.ids.delete(id); // a Set keeps first-insertion order: re-insert to make it the newest
    this.ids.add(id);
    if (this.ids.size > this.capacity) this.ids.delete(this.ids.values().next().value as string);
  }

  /** Oldest first: the order compaction writes them back in, so a reload evicts the same ids. */
  values(): IterableIterator<string> {
    return this.ids.values();
  }
}
