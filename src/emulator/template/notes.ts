/**
 * The template's records: a note lives an hour of emulator time. Copy the shape: the table next to
 * the code that owns it, time from `emu.now()`, rendering in one place.
 */
import { newId } from '../kernel/ids.js';
import type { EmulatorContext } from '../kernel/context.js';
import { durableTable } from '../kernel/tables.js';

export const NOTE_LIFETIME_MS = 3600_000;

export interface NoteRec {
  id: string;
  text: string;
  createdAtMs: number;
}

/** Durable: saved in --state under "templateNotes". */
export const notes = durableTable<NoteRec>('templateNotes', {
  id: 'string',
  text: 'string',
  createdAtMs: 'number',
});

export function insertNote(emu: EmulatorContext, text: string): NoteRec {
  const note = { id: newId('Note'), text, createdAtMs: emu.now() };
  return emu.table(notes).set(note.id, note);
}

export const renderNote = (emu: EmulatorContext, n: NoteRec) => ({
  id: n.id,
  text: n.text,
  createdAt: emu.iso(n.createdAtMs),
  expiresAt: emu.iso(n.createdAtMs + NOTE_LIFETIME_MS),
});
