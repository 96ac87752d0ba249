/**
 * The shape of an emulator area, to copy into features/<area>/ (README "Adding an area"). It is
 * not in features.ts, so the emulator never serves it; its test (test/integration/emulator/template/)
 * runs it alone on the kernel. An area declares, in its own folder: its records and tables (notes.ts),
 * its routes, each with its permission (routes.ts),
 * what it forgets (`sweep`), the fixture ids it makes at start (`fixtureKeys`, `fixtures`), its
 * test hooks (`testing`) and, when it has options, an options.ts (see features/cards/options.ts).
 */
import { defineFeature } from '../kernel/feature.js';
import type { Fixtures } from '../kernel/fixtures.js';
import { NOTE_LIFETIME_MS, insertNote, notes } from './notes.js';
import { noteRoutes } from './routes.js';

export const templateFeature = defineFeature({
  name: 'template',
  routes: noteRoutes,
  tables: [notes],
  sweep(emu, now) {
    emu.table(notes).deleteWhere((n) => n.createdAtMs + NOTE_LIFETIME_MS <= now);
  },
  fixtureKeys: ['noteId'],
  // `made` holds the ids of the last run (--state): keep the note while it lives, else make one.
  fixtures(emu, made: Partial<Fixtures<'noteId'>>) {
    if (made.noteId && emu.table(notes).has(made.noteId)) return {};
    return { noteId: insertNote(emu, 'Welcome to the emulator').id };
  },
  testing: (emu) => ({
    /** How many notes the area holds (a test of the sweep counts without listing them over HTTP). */
    noteCount: () => emu.table(notes).size,
  }),
});
