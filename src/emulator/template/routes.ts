/**
 * The template's routes. Each declares the API token permission it needs (`permission`) and, for a
 * create, opts into the kernel's Idempotency-Key answers (`idempotent`). A route of the service's
 * API description gets its request checked against the description before the handler runs, so a
 * handler checks only business rules; these routes are the emulator's own, so they check their
 * input with Fields (one 400 listing every bad field). Errors come from kernel/errors.ts.
 */
import { notFound } from '../kernel/errors.js';
import { Fields } from '../kernel/fields.js';
import type { Route } from '../kernel/router.js';
import { insertNote, notes, renderNote } from './notes.js';

export const noteRoutes: Route[] = [
  {
    method: 'POST',
    path: '/template/notes',
    permission: 'MANAGE',
    idempotent: {},
    handler(req, emu) {
      const f = new Fields(req.json());
      const text = f.string('text', { required: true, maxLength: 280 });
      f.done();
      return { status: 201, body: renderNote(emu, insertNote(emu, text!)) };
    },
  },
  {
    method: 'GET',
    path: '/template/notes/:id',
    permission: 'VIEW',
    handler(req, emu) {
      const note = emu.table(notes).get(req.params.id!);
      if (!note) throw notFound('Note', req.params.id!);
      return { status: 200, body: renderNote(emu, note) };
    },
  },
];
