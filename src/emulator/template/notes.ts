/**
 * The template's records and routes: a note lives an hour of emulator time. Copy the shape: the
 * table next to the code that owns it, input checked with Fields (one 400 listing every bad field),
 * errors from kernel/errors.ts, time from `emu.now()`.
 */
import { notFound } from '../kernel/errors.js';
import { Fields } from '../kernel/fields.js';
import { newId } from '../kernel/ids.js';
import type { EmulatorContext } from '../kernel/context.js';
import type { Route } from '../kernel/router.js';
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

const render = (emu: EmulatorContext, n: NoteRec) => ({
  id: n.id,
  text: n.text,
  createdAt: emu.iso(n.createdAtMs),
  expiresAt: emu.iso(n.createdAtMs + NOTE_LIFETIME_MS),
});

export const noteRoutes: Route[] = [
  {
    method: 'POST',
    path: '/template/notes',
    permission: 'MANAGE',
    handler(req, emu) {
      const f = new Fields(req.json());
      const text = f.string('text', { required: true, maxLength: 280 });
      f.done();
      return { status: 201, body: render(emu, insertNote(emu, text!)) };
    },
  },
  {
    method: 'GET',
    path: '/template/notes/:id',
    permission: 'VIEW',
    handler(req, emu) {
      const note = emu.table(notes).get(req.params.id!);
      if (!note) throw notFound('Note', req.params.id!);
      return { status: 200, body: render(emu, note) };
    },
  },
];
