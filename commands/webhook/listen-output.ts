/**
 * What `svc webhook listen` prints: one line (or a few) per ListenerEvent. Events go to stdout
 * (one JSON line each under --json, after the ready line), everything else to stderr. A delivery's
 * id is recorded as seen only once its line has left the process (the promise `render` returns
 * for it), which is the crash contract of src/webhook/dedupe.ts.
 */
import type { Deps } from '../deps.js';
import type { UI } from '../ui.js';
import type { ForwardResult } from '../../src/webhook/forward.js';
import type { ListenerEvent } from '../../src/webhook/listener.js';
import { deepJson } from '../../src/webhook/deep-json.js';
import { CardStates, describeEvent, eventRecord, eventRecordLine, type EventRecord } from '../../src/webhook/render.js';
import { formatDuplicate, formatEvent, formatForward, formatMs } from './format.js';

export const SKIP_VERIFY_WARNING =
  'signatures are NOT verified (--skip-verify): anyone who can reach this port can inject events';

type Delivery = Extract<ListenerEvent, { kind: 'delivery' }>;
type Emulator = Extract<ListenerEvent, { kind: 'emulator' }>;

/** Renders the listener's events; deliveries wait for `ready()` (the --json ready line goes first). */
export function renderer(
  ui: UI,
  deps: Deps,
  store?: string,
): { ready(): void; render(e: ListenerEvent): void | Promise<void> } {
  const cards = new CardStates();
  let isReady = false;
  let ready!: () => void;
  const gate = new Promise<void>((resolve) => (ready = resolve));
  const json = deps.globals.json;
  // Read per line: a terminal can be resized while listening. 0 (unknown) for pipes and files.
  const columns = () => (deps.io.stdoutIsTTY ? ((deps.io.stdout as { columns?: number }).columns ?? 0) : 0);
  const failed = (result: ForwardResult) =>
    `${result.url} failed: ${result.error ? `${result.status} (${result.error})` : result.status} after ${formatMs(result.ms)}`;

  const stdoutBatch = batchedLines(deps.io.stdout);
  // --jq filters the record as a value, so it needs the object; without it the line is made from the body's bytes.
  const linesFromBody = json && deps.globals.jq === undefined;
  const show = ({ event, body, verified, forward, redelivered, attempt }: Delivery) => {
    stdoutBatch.hold();
    if (!verified) ui.warn(`UNVERIFIED event ${event.id}: ${SKIP_VERIFY_WARNING}`);
    // Under --json the line is the envelope itself: nothing reads the described parts or the per-card states.
    if (!json) {
      const parts = describeEvent(event, cards);
      ui.out(formatEvent(ui.c, parts, forward, forward?.url, columns(), redelivered, verified, attempt));
    } else {
      const line = linesFromBody ? eventRecordLine(body, event, verified, redelivered, forward, attempt) : undefined;
      if (line !== undefined) ui.out(line);
      else jsonLine(ui, eventRecord(event, verified, redelivered, forward, attempt));
      // stdout keeps its one-line-per-event shape; the app's answer is in its fields, and here for a reader of stderr.
      if (forward?.url) ui.info(`${event.id} ${formatForward(forward, forward.url, attempt)}`);
    }
    return stdoutBatch();
  };

  function render(e: ListenerEvent): void | Promise<void> {
    switch (e.kind) {
      // Resumed deliveries and the first ones can come before the ready line is out: they wait for it.
      case 'delivery':
        return isReady ? show(e) : gate.then(() => show(e));
      case 'filtered':
        // Not shown, but a later event of its card reads the state it leaves (people's lines only).
        if (!json) describeEvent(e.event, cards);
        if (deps.globals.verbose)
          ui.info(ui.ce.dim(`filtered  ${e.event.type}  [${e.event.id}] acknowledged, not shown`));
        return;
      case 'duplicate':
        // Under --json stdout carries only events, so the duplicate line goes to stderr (its own colours).
        return json ? ui.info(formatDuplicate(ui.ce, e.event, 0)) : ui.out(formatDuplicate(ui.c, e.event, columns()));
      case 'rejected':
        return ui.warn(`rejected a request from ${e.remote ?? 'unknown'}: ${e.status} ${e.reason}`);
      case 'forward-failed':
        return ui.warn(
          `forwarding ${e.event.id} to ${failed(e.result)}; answered ${e.result.status} so the service retries`,
        );
      case 'forward-queued':
        if (e.result === undefined)
          return ui.warn(
            `${e.event.id} waits in the --store journal behind the deliveries ${e.target} has not taken yet; next try in ${formatMs(e.retryInMs)}`,
          );
        return ui.warn(
          `forwarding ${e.event.id} to ${failed(e.result)} (attempt ${e.attempt}); kept in the --store journal, next try in ${formatMs(e.retryInMs)}`,
        );
      case 'error':
        return ui.warn(`could not process ${e.event.id}: ${message(e.error)}`);
      case 'app-unreachable':
        return ui.warn(
          `${e.input === 'route' ? '--route' : '--forward-to'}: ${e.line}; deliveries are answered with an error${store ? ' (with --store: kept and retried)' : ''} until your app is up`,
        );
      case 'emulator':
        return emulatorLine(ui, e);
    }
  }
  return {
    ready() {
      isReady = true;
      ready();
    },
    render,
  };
}

/** The record as one JSON line (through --jq when given). */
function jsonLine(ui: UI, record: EventRecord): void {
  try {
    ui.json(record);
  } catch (error) {
    // Too deep for JSON.stringify (it verified, so it is shown): the same line, built without recursion.
    if (!(error instanceof RangeError)) throw error;
    ui.out(deepJson(record));
  }
}

/** The local emulator's endpoint: taken over, watched, given back. */
function emulatorLine(ui: UI, e: Emulator): void {
  switch (e.news) {
    case 'registered':
      return ui.info(`Registered ${e.url} as the webhook endpoint of ${e.baseUrl} (PATCH /config)`);
    case 'replaced':
      return ui.warn(
        `replacing the emulator's webhook endpoint ${e.previous} with ${e.url}; it is put back when this listener stops`,
      );
    case 'not-registered':
      return ui.warn(`could not register ${e.url} with the local emulator: ${message(e.error)}`);
    case 'down':
      return ui.warn(
        `the emulator at ${e.baseUrl} is not answering: nothing is delivered until it is back (svc emulator start); this listener keeps running`,
      );
    case 'lost':
      return ui.warn(`the emulator had no webhook endpoint (restarted without --state?): registered ${e.url} again`);
    case 'taken':
      return ui.warn(
        `the emulator now delivers to ${e.by}, not to this listener (another svc webhook listen took over). Stop that one, or run svc webhook listen again here to take the endpoint back`,
      );
    case 'key-adopted':
      return ui.warn(
        "the emulator's webhook key changed (a new emulator started): now verifying with the new key from the profile",
      );
    case 'key-changed':
      return ui.warn(
        "the local emulator's webhook key changed (a new emulator started): deliveries will fail verification. Restart this listener without --public-key (the profile has the new key), or pass the key svc emulator start printed",
      );
    case 'back':
      return ui.info(`the emulator delivers to this listener again (${e.url})`);
    case 'restored':
      return ui.info(`Restored the emulator's webhook endpoint to ${e.previous}`);
    case 'cleared':
      return ui.info("Cleared the emulator's webhook endpoint (none was set before)");
    case 'not-restored':
      return ui.info(`Could not put back the emulator's webhook endpoint: ${message(e.error)}`);
  }
}

const message = (error: unknown) => (error instanceof Error ? error.message : String(error));

/**
 * One write a batch: the lines of the deliveries shown in one turn of the event loop are held in
 * the stream (cork) and leave in one write when the turn ends (uncork, at setImmediate), not one
 * system call (and one wake-up of the reader) a line. `hold()` before writing a delivery's line;
 * then the call returns the batch's promise, settled as `written` says once the batch is out.
 */
function batchedLines(stream: NodeJS.WritableStream): {
  hold(): void;
  (): Promise<void> | undefined;
} {
  const s = stream as NodeJS.WritableStream & {
    cork?(): void;
    uncork?(): void;
  };
  let batch: Promise<void> | undefined;
  const hold = () => {
    if (batch !== undefined || typeof s.cork !== 'function') return;
    s.cork();
    batch = new Promise<void>((resolve, reject) =>
      setImmediate(() => {
        batch = undefined;
        s.uncork!();
        const out = written(stream);
        if (out === undefined) resolve();
        else out.then(resolve, reject);
      }),
    );
    batch.catch(() => {}); // each delivery of the batch handles the rejection; none may be waiting
  };
  return Object.assign(() => batch ?? written(stream), { hold });
}

/**
 * Undefined when everything written to `stream` has reached its file descriptor (a terminal, a file,
 * or a pipe with room), else a promise that settles once it has: a pipe whose reader lags keeps the
 * rest in this process's memory, which a crash would lose. Rejects when the line could not be
 * written (its reader is gone, `| head -1`): the delivery is then not acknowledged, and the service
 * retries it.
 */
function written(stream: NodeJS.WritableStream): Promise<void> | undefined {
  const s = stream as {
    writableLength?: number;
    destroyed?: boolean;
    errored?: unknown;
  };
  // A write to a pipe whose reader is gone fails at once (EPIPE) and destroys the stream.
  if (s.destroyed || s.errored) return Promise.reject(new Error('stdout is closed: the delivery was not shown'));
  if (!s.writableLength) return undefined;
  // An empty write's callback runs after every write queued before it, with their error if one failed.
  return new Promise((resolve, reject) => stream.write('', (error) => (error ? reject(error) : resolve())));
}
