/**
 * Emulator-only endpoints at the root with HTTP Basic, like /_emulator/clock, for the CLI:
 *   GET /_emulator/dashboard                       → {dashboardUrl}   (`svc emulator open`)
 *   GET /_emulator/requests?after=<seq>&wait=<ms> → {data: [request summary…], lastSeq}   (`svc emulator logs`)
 * With `wait`, an empty answer is held until a request is answered or the wait (real time, at
 * most MAX_WAIT_MS) is spent: `--follow` sees a request as soon as it is logged, without polling.
 * Its own requests are left out of the log.
 */
import type { EmulatorContext } from '../kernel/context.js';
import { Fields } from '../kernel/fields.js';
import type { Reply, Route } from '../kernel/router.js';
import { requestSummary } from './request-view.js';

const REQUEST_LOG_PATH = '/_emulator/requests';
const MAX_WAIT_MS = 25_000;

function page(emu: EmulatorContext, after: number): Reply {
  return { status: 200, body: { data: emu.requests.since(after).map(requestSummary), lastSeq: emu.requests.lastSeq } };
}

const DASHBOARD_URL_PATH = '/_emulator/dashboard';

/** The routes, given the running dashboard's URL. */
export const dashboardRoutes = (dashboardUrl: () => string): Route[] => [
  {
    method: 'GET',
    path: DASHBOARD_URL_PATH,
    permission: 'none',
    unversioned: true,
    handler: () => ({ status: 200, body: { dashboardUrl: dashboardUrl() } }),
  },
  {
    method: 'GET',
    path: REQUEST_LOG_PATH,
    permission: 'none',
    unversioned: true,
    unlogged: true,
    async handler(req, emu) {
      const f = new Fields(Object.fromEntries([...req.query].map(([k, v]) => [k, Number(v)])));
      const after = f.integer('after', { min: 0 }) ?? 0;
      const wait = f.integer('wait', { min: 0, max: MAX_WAIT_MS }) ?? 0;
      f.done();
      if (wait === 0 || emu.requests.lastSeq > after) return page(emu, after);
      await new Promise<void>((resolve) => {
        const timer = setTimeout(finish, wait);
        timer.unref();
        const unsubscribe = emu.requests.subscribe(finish);
        function finish() {
          clearTimeout(timer);
          unsubscribe();
          resolve();
        }
      });
      return page(emu, after);
    },
  },
];
