/**
 * What `svc webhook listen` prints: the receiver's callbacks. Events go to stdout (one JSON line
 * each under --json, after the ready line), everything else to stderr. An event's id is recorded
 * as seen only once its line has left the process (written()), which is the crash contract of
 * src/webhook/dedupe.ts.
 */
import type { Deps } from '../deps.js';
import type { UI } from '../ui.js';
import type { Forwarder } from '../../src/webhook/forward.js';
import type { ReceiverOptions } from '../../src/webhook/receiver.js';
import { deepJson } from '../../src/webhook/deep-json.js';
import { CardStates, describeEvent, eventRecord } from '../../src/webhook/render.js';
import { formatDuplicate, formatEvent, formatForward, formatMs } from './format.js';

export const SKIP_VERIFY_WARNING =
  'signatures are NOT verified (--skip-verify): anyone who can reach this port can inject events';

type Handlers = Pick<
  ReceiverOptions,
  'onEvent' | 'onDuplicate' | 'onRejected' | 'onForwardFailed' | 'onForwardQueued' | 'onFiltered' | 'onError'
>;

/** The receiver's callbacks; events wait for `ready()` (the --json ready line goes first). */
export function handlers(ui: UI, deps: Deps, forwarder: Forwarder | undefined): Handlers & { ready(): void } {
  const cards = new CardStates();
  let isReady = false;
  let ready!: () => void;
  const gate = new Promise<void>((resolve) => (ready = resolve));
  const json = deps.globals.json;
  // Read per line: a terminal can be resized while listening. 0 (unknown) for pipes and files.
  const columns = () => (deps.io.stdoutIsTTY ? ((deps.io.stdout as { columns?: number }).columns ?? 0) : 0);
  const show: Handlers['onEvent'] = ({ event, verified, forward, redelivered, attempt }) => {
    // Describe even under --json: it keeps the per-card state that "ACTIVE after PROCESSING" needs.
    const parts = describeEvent(event, cards);
    if (!verified) ui.warn(`UNVERIFIED event ${event.id}: ${SKIP_VERIFY_WARNING}`);
    if (!json) ui.out(formatEvent(ui.c, parts, forward, forward?.url, columns(), redelivered, verified, attempt));
    else {
      const record = eventRecord(event, verified, redelivered, forward, attempt);
      try {
        ui.json(record);
      } catch (error) {
        // Too deep for JSON.stringify (it verified, so it is shown): the same line, built without recursion.
        if (!(error instanceof RangeError)) throw error;
        ui.out(deepJson(record));
      }
      // stdout keeps its one-line-per-event shape; the app's answer is in its fields, and here for a reader of stderr.
      if (forward?.url) ui.info(`${event.id} ${formatForward(forward, forward.url, attempt)}`);
    }
    // The id is recorded as seen only once its line has left this process (the crash contract).
    return written(deps.io.stdout);
  };
  return {
    ready() {
      isReady = true;
      ready();
    },
    // Resumed deliveries and the first ones can come before the ready line is out: they wait for it.
    onEvent: (accepted) => (isReady ? show(accepted) : gate.then(() => show(accepted))),
    onFiltered(event) {
      describeEvent(event, cards);
      if (deps.globals.verbose) ui.info(ui.ce.dim(`filtered  ${event.type}  [${event.id}] acknowledged, not shown`));
    },
    onDuplicate(event) {
      // Under --json stdout carries only events, so the duplicate line goes to stderr (its own colours).
      if (json) ui.info(formatDuplicate(ui.ce, event, 0));
      else ui.out(formatDuplicate(ui.c, event, columns()));
    },
    onRejected({ status, reason, remote }) {
      ui.warn(`rejected a request from ${remote ?? 'unknown'}: ${status} ${reason}`);
    },
    onForwardFailed(event, result) {
      const what = result.error ? `${result.status} (${result.error})` : `${result.status}`;
      ui.warn(
        `forwarding ${event.id} to ${result.url ?? forwarder?.url} failed: ${what} after ${formatMs(result.ms)}; answered ${result.status} so the service retries`,
      );
    },
    onForwardQueued(event, result, attempt, retryInMs) {
      const what = result.error ? `${result.status} (${result.error})` : `${result.status}`;
      ui.warn(
        `forwarding ${event.id} to ${result.url ?? forwarder?.url} failed: ${what} after ${formatMs(result.ms)} (attempt ${attempt}); kept in the --store journal, next try in ${formatMs(retryInMs)}`,
      );
    },
    onError(error, event) {
      ui.warn(`could not process ${event.id}: ${error instanceof Error ? error.message : String(error)}`);
    },
  };
}

/**
 * Undefined when everything written to `stream` has reached its file descriptor (a terminal, a file,
 * or a pipe with room), else a promise that settles once it has: a pipe whose reader lags keeps the
 * rest in this process's memory, which a crash would lose.
 */
function written(stream: NodeJS.WritableStream): Promise<void> | undefined {
  const pending = (stream as { writableLength?: number }).writableLength;
  if (!pending) return undefined;
  // An empty write's callback runs after every write queued before it; an error (closed stdout) too.
  return new Promise((resolve) => stream.write('', () => resolve()));
}
