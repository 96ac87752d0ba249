/**
 * New record ids. Node builds `randomUUID()` by joining its pieces, which leaves a tree of about
 * twenty cons strings (some 520 bytes) that V8 keeps for as long as the string lives; a stored id
 * lives as long as its record, so it is copied into one flat string (about 70 bytes). With three
 * ids a customer (its own and its two accounts'), that was most of what a stored customer cost
 * (the budget: at most 2 KiB a customer).
 */
import { randomUUID } from 'node:crypto';

function flat(text: string): string {
  return Buffer.from(text, 'latin1').toString('latin1');
}

/** `<prefix>:<uuid>`, e.g. newId('Customer'). */
export function newId(prefix: string): string {
  return flat(`${prefix}:${randomUUID()}`);
}

/** A bare uuid, flat. */
export function newUuid(): string {
  return flat(randomUUID());
}
