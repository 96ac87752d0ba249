/**
 * Table indexes keep a bucket of ids per key: the id alone, a small array, a Set past SMALL_BUCKET
 * (tables.ts). Whatever the bucket, a lookup answers the records under the key in insertion order,
 * and a record removed or moved to another key is gone from its old key.
 */
import { describe, expect, it } from 'vitest';
import { Table, tableIndex } from '../../../src/emulator/kernel/tables.js';

interface Rec {
  id: string;
  owner: string;
}
const byOwner = tableIndex<Rec>((r) => r.owner);
const ids = (records: Rec[]) => records.map((r) => r.id);

function tableOf(count: number, owner = 'a'): Table<Rec> {
  const table = new Table<Rec>(() => undefined);
  table.where(byOwner, owner); // the index exists before the records: each set adds to its bucket
  for (let i = 0; i < count; i++) table.set(`r${i}`, { id: `r${i}`, owner });
  return table;
}

describe('table index buckets', () => {
  for (const count of [1, 2, 8, 9, 40]) {
    it(`${count} records under one key: found in insertion order, removals and moves leave it`, () => {
      const table = tableOf(count);
      table.set('other', { id: 'other', owner: 'b' });
      const all = Array.from({ length: count }, (_, i) => `r${i}`);
      expect(ids(table.where(byOwner, 'a'))).toEqual(all);
      table.set('r0', { id: 'r0', owner: 'a' }); // rewritten under the same key: keeps its place
      expect(ids(table.where(byOwner, 'a'))).toEqual(all);
      table.delete('r0');
      if (count > 1) table.set('r1', { id: 'r1', owner: 'b' }); // moved to another key
      const left = all.filter((id) => id !== 'r0' && id !== 'r1');
      expect(ids(table.where(byOwner, 'a'))).toEqual(left);
      expect(ids(table.where(byOwner, 'b'))).toEqual(count > 1 ? ['other', 'r1'] : ['other']);
      table.set('r0', { id: 'r0', owner: 'a' }); // back, now last
      expect(ids(table.where(byOwner, 'a'))).toEqual([...left, 'r0']);
      table.deleteWhere((r) => r.owner === 'a');
      expect(table.where(byOwner, 'a')).toEqual([]);
    });
  }

  it('a bucket that shrank from a Set and grows again keeps every record once', () => {
    const table = tableOf(12);
    for (let i = 0; i < 11; i++) table.delete(`r${i}`);
    expect(ids(table.where(byOwner, 'a'))).toEqual(['r11']);
    for (let i = 0; i < 12; i++) table.set(`s${i}`, { id: `s${i}`, owner: 'a' });
    table.set('s3', { id: 's3', owner: 'a' });
    expect(ids(table.where(byOwner, 'a'))).toEqual(['r11', ...Array.from({ length: 12 }, (_, i) => `s${i}`)]);
  });
});
