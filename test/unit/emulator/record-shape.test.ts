/**
 * The shape check a durable table's records pass at load: the first bad record is named by its path
 * in the file, and a declared shape must list every field of the record type with a kind that fits.
 */
import { describe, expect, it } from 'vitest';
import { firstBadRecord, type Shape } from '../../../src/emulator/kernel/record-shape.js';

interface Rec {
  id: string;
  balance: number;
  note?: string;
}
const shape: Shape<Rec> = { id: 'string', balance: 'number', note: 'string?' };

describe('firstBadRecord', () => {
  it('passes records that fit, with fields the shape does not name', () => {
    expect(firstBadRecord('t', { 'R:1': { id: 'R:1', balance: 5, older: true } }, shape)).toBeUndefined();
  });

  it('names the first bad record by its path and says what is wrong', () => {
    expect(firstBadRecord('t', [], shape)).toEqual({ path: 't', problem: 'must be an object of records, is an array' });
    expect(firstBadRecord('t', { 'R:1': 'x' }, shape)).toMatchObject({ path: 't["R:1"]' });
    expect(firstBadRecord('t', { 'R:1': { id: 'R:2', balance: 1 } }, shape)).toMatchObject({ path: 't["R:1"].id' });
    expect(firstBadRecord('t', { 'R:1': { id: 'R:1', balance: '7' } }, shape)).toEqual({
      path: 't["R:1"].balance',
      problem: 'must be a number, is a string',
    });
    expect(firstBadRecord('t', { 'R:1': { id: 'R:1' } }, shape)).toMatchObject({
      problem: expect.stringContaining('missing'),
    });
    expect(firstBadRecord('t', { 'R:1': { id: 'R:1', balance: 1, note: 3 } }, shape)).toMatchObject({
      path: 't["R:1"].note',
    });
  });

  it('makes a shape name every field with a fitting kind (checked by the compiler)', () => {
    // @ts-expect-error: note is missing
    const incomplete: Shape<Rec> = { id: 'string', balance: 'number' };
    // @ts-expect-error: balance is a number, not a string
    const wrong: Shape<Rec> = { id: 'string', balance: 'string', note: 'string?' };
    // @ts-expect-error: note may be absent, so its kind must say so
    const required: Shape<Rec> = { id: 'string', balance: 'number', note: 'string' };
    expect([incomplete, wrong, required]).toHaveLength(3);
  });
});
