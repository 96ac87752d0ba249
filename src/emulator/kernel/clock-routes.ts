/**
 * Emulator-only endpoints to read and move the virtual clock. They are not part of the service: they
 * live at the root, outside the version segment, and need the same HTTP Basic credentials.
 *   GET  /_emulator/clock                 → {now, timeScale}
 *   POST /_emulator/clock/advance {"ms"}  → jumps the clock; every timer due on the way fires first
 */
import type { EmulatorContext } from './context.js';
import { Fields } from './fields.js';
import type { Route } from './router.js';

/** The longest single jump (a year): enough for any expiry, and far from overflowing a date. */
export const MAX_ADVANCE_MS = 366 * 24 * 3600 * 1000;

function clockBody(emu: EmulatorContext): Record<string, unknown> {
  return { now: emu.iso(), timeScale: emu.clock.timeScale };
}

export const clockRoutes: Route[] = [
  {
    method: 'GET',
    path: '/_emulator/clock',
    permission: 'none',
    unversioned: true,
    handler: (_req, emu) => ({ status: 200, body: clockBody(emu) }),
  },
  {
    method: 'POST',
    path: '/_emulator/clock/advance',
    permission: 'none',
    unversioned: true,
    handler(req, emu) {
      const f = new Fields(req.json());
      const ms = f.integer('ms', { required: true, min: 0, max: MAX_ADVANCE_MS });
      f.done();
      emu.clock.advance(ms!);
      return { status: 200, body: clockBody(emu) };
    },
  },
];
