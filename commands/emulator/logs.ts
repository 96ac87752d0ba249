/**
 * `svc emulator logs [--follow] [--status 4xx] [--path <glob>]`: the requests the running emulator
 * answered, oldest first (the dashboard's Requests view, in the terminal), read from its
 * GET /_emulator/requests. With --follow it then waits for each new one (the emulator holds the
 * answer until a request is logged) until Ctrl-C. --json prints one JSON object a line.
 */
import type { Deps } from '../deps.js';
import type { OptionsOf } from '../verb.js';
import type * as verbs from './verbs.js';
import { formatRequestLine, type LoggedRequestLine, requestFilter } from './log-filter.js';
import { getFromEmulator } from './emulator-endpoint.js';

const REQUESTS_PATH = '/_emulator/requests';
/** How long one --follow request waits for a new entry: well inside the client's own timeout. */
const FOLLOW_WAIT_MS = 20_000;

interface Page {
  data: LoggedRequestLine[];
  lastSeq: number;
}

export async function run(opts: OptionsOf<typeof verbs.logs>, deps: Deps): Promise<void> {
  const { ui } = deps;
  const keep = requestFilter(opts.status, opts.path);
  const print = (line: LoggedRequestLine) => {
    if (!keep(line)) return;
    if (deps.globals.json) ui.json(line);
    else ui.out(formatRequestLine(line));
  };
  const first = await getFromEmulator<Page>(deps, REQUESTS_PATH);
  for (const line of first.body.data) print(line);
  if (!opts.follow) return;
  const client = await deps.client();
  const wait = Math.max(1000, Math.min(FOLLOW_WAIT_MS, (client.timeoutMs ?? 30_000) - 5_000));
  ui.info(`Following the request log of ${first.baseUrl}; press Ctrl-C to stop.`);
  let after = first.body.lastSeq;
  while (!deps.signal.aborted) {
    let page: Page;
    try {
      page = (await getFromEmulator<Page>(deps, REQUESTS_PATH, `?after=${after}&wait=${wait}`)).body;
    } catch (error) {
      if (deps.signal.aborted) return;
      throw error;
    }
    for (const line of page.data) print(line);
    after = page.lastSeq;
  }
}
