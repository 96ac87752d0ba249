// The Clock view: the emulator's time and time scale; "Advance by" moves the virtual clock.
import { api } from './dom.js';

let clock;

export async function loadClock() {
  const c = await api('clock');
  clock = { now: Date.parse(c.now), at: performance.now(), timeScale: c.timeScale };
  document.getElementById('clock-scale').textContent = `${c.timeScale}×`;
  tick();
}

/** The time shown runs on between reads, at the emulator's scale. */
export function tick() {
  if (!clock) return;
  const now = clock.now + (performance.now() - clock.at) * clock.timeScale;
  document.getElementById('clock-now').textContent = new Date(now).toISOString();
}

export function wireClock() {
  const form = document.getElementById('advance-form');
  const result = document.getElementById('advance-result');
  form.addEventListener('submit', async (event) => {
    event.preventDefault();
    const by = form.elements.by.value;
    try {
      const c = await api('clock/advance', { by });
      result.textContent = `Advanced by ${by}: it is now ${c.now}.`;
      await loadClock();
    } catch (error) {
      result.textContent = error.message;
    }
  });
  setInterval(tick, 1000);
}
