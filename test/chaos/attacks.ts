/**
 * Abuse of an HTTP server over raw loopback sockets, the same for the emulator and the listener.
 * Each attack returns a Tally: requests tried, answered as a well-behaved server should (survived),
 * and lost (a 5xx, no answer in time, or the server no longer answering a good request afterwards).
 * Sizes come from the caller: CI-size in the tests, larger under `npm run chaos`.
 */
import { readFileSync } from 'node:fs';
import { connect, type Socket } from 'node:net';

export interface Target {
  port: number;
  /** A complete request the server must answer 2xx; `n` makes it distinct (a new delivery id). */
  good(n: number): Buffer;
  /** A complete request carrying `body` (signed, for the listener) to where bodies are parsed. */
  withBody(body: Buffer, extraHeaders?: string): Buffer;
  /** Requests (authorized where the server wants it) to targets with traversal, encoding and length tricks: 4xx expected. */
  tricks: Buffer[];
  /** Requests with wrong Basic credentials (emulator only): 401 expected. */
  wrongCredentials?: Buffer[];
}

export interface Tally {
  attack: string;
  tried: number;
  survived: number;
  lost: number;
  /** What went wrong, first few only. */
  notes: string[];
}

const CRLF = '\r\n';

/** Sends bytes, collects response status codes until `expected` arrived, the socket closed, or timeoutMs. */
export function exchange(
  port: number,
  bytes: Buffer | Buffer[],
  expected: number,
  timeoutMs = 5000,
): Promise<{ statuses: number[]; closed: boolean; timedOut: boolean }> {
  return new Promise((resolve) => {
    const socket = connect(port, '127.0.0.1');
    let text = '';
    let closed = false;
    const statuses = () => [...text.matchAll(/HTTP\/1\.1 (\d{3}) /g)].map((m) => Number(m[1]));
    const finish = (timedOut: boolean) => {
      clearTimeout(timer);
      socket.destroy();
      resolve({ statuses: statuses(), closed, timedOut });
    };
    const timer = setTimeout(() => finish(true), timeoutMs);
    socket.on('connect', () => {
      for (const b of Array.isArray(bytes) ? bytes : [bytes]) socket.write(b);
    });
    socket.setEncoding('latin1');
    socket.on('data', (d: string) => {
      text += d;
      if (statuses().length >= expected && completeResponses(text) >= expected) finish(false);
    });
    socket.on('error', () => {});
    socket.on('close', () => {
      closed = true;
      finish(false);
    });
  });
}

/** How many responses are complete (head and Content-Length body) in `text`. */
function completeResponses(text: string): number {
  let n = 0;
  let at = 0;
  for (;;) {
    const head = text.indexOf(CRLF + CRLF, at);
    if (head < 0) return n;
    const length = /content-length: *(\d+)/i.exec(text.slice(at, head))?.[1];
    const end = head + 4 + Number(length ?? 0);
    if (end > text.length) return n;
    n++;
    at = end;
  }
}

function tally(attack: string): Tally {
  return { attack, tried: 0, survived: 0, lost: 0, notes: [] };
}

function judge(t: Tally, ok: boolean, note: string): void {
  t.tried++;
  if (ok) t.survived++;
  else {
    t.lost++;
    if (t.notes.length < 5) t.notes.push(note);
  }
}

const is4xx = (s: number | undefined) => s !== undefined && s >= 400 && s < 500;

/** A 4xx answer, or the connection closed without any answer (node's parser drops some outright). */
async function refused(target: Target, bytes: Buffer, t: Tally, what: string): Promise<void> {
  const r = await exchange(target.port, bytes, 1);
  const s = r.statuses[0];
  judge(
    t,
    !r.timedOut && (is4xx(s) || (s === undefined && r.closed)),
    `${what}: ${r.timedOut ? 'no answer in time' : (s ?? 'closed')}`,
  );
}

let serial = 0;
/** The server still answers a good request 2xx. */
export async function stillServing(target: Target): Promise<boolean> {
  const r = await exchange(target.port, target.good(1e6 + serial++), 1);
  return r.statuses[0] !== undefined && r.statuses[0] < 300;
}

export async function pipelined(target: Target, depth: number, rounds: number): Promise<Tally> {
  const t = tally(`pipelined (${depth} requests per write)`);
  for (let r = 0; r < rounds; r++) {
    const requests = Array.from({ length: depth }, () => target.good(serial++));
    const res = await exchange(target.port, Buffer.concat(requests), depth, 10_000);
    for (let i = 0; i < depth; i++)
      judge(t, (res.statuses[i] ?? 999) < 300, `pipelined #${i}: ${res.statuses[i] ?? 'no answer'}`);
  }
  return t;
}

export async function framing(target: Target, rounds: number): Promise<Tally> {
  const t = tally('duplicate Content-Length, Transfer-Encoding with Content-Length, bad chunking');
  const body = Buffer.from('{"a":1}');
  for (let r = 0; r < rounds; r++) {
    await refused(
      target,
      target.withBody(body, `Content-Length: ${body.length + 1}${CRLF}`),
      t,
      'two different Content-Length',
    );
    await refused(
      target,
      Buffer.concat([
        target.withBody(Buffer.alloc(0), `Transfer-Encoding: chunked${CRLF}`),
        Buffer.from(`7${CRLF}{"a":1}${CRLF}0${CRLF}${CRLF}`),
      ]),
      t,
      'Transfer-Encoding with Content-Length',
    );
    await refused(
      target,
      Buffer.from(`POST / HTTP/1.1${CRLF}Host: x${CRLF}Transfer-Encoding: chunked${CRLF}${CRLF}zz${CRLF}`),
      t,
      'bad chunk size',
    );
  }
  return t;
}

export async function bodies(target: Target, rounds: number): Promise<Tally> {
  const t = tally('oversize, deeply nested, huge and invalid-UTF-8 bodies');
  const nested = Buffer.from('['.repeat(200_000) + ']'.repeat(200_000));
  const huge = Buffer.from(JSON.stringify({ id: 'x', filler: 'a'.repeat(900_000) }));
  const badUtf8 = Buffer.concat([
    Buffer.from('{"id":"Webhook:'),
    Buffer.from([0xff, 0xfe, 0xc3]),
    Buffer.from('","type":"X","timestamp":"2026-01-01T00:00:00Z","data":{}}'),
  ]);
  for (let r = 0; r < rounds; r++) {
    const over = Buffer.alloc(1024 * 1024 + 10, 0x20);
    await refused(target, target.withBody(over), t, 'body over 1 MiB');
    await refused(target, target.withBody(nested), t, 'nested 200k deep');
    await refused(target, target.withBody(huge), t, 'huge JSON that is not a valid request');
    await refused(target, target.withBody(badUtf8), t, 'invalid UTF-8');
  }
  return t;
}

export async function paths(target: Target, rounds: number): Promise<Tally> {
  const t = tally('path tricks in ids');
  for (let r = 0; r < rounds; r++) {
    for (const bytes of target.tricks) await refused(target, bytes, t, bytes.toString('latin1', 0, 80).split(CRLF)[0]!);
  }
  return t;
}

export async function credentials(target: Target, rounds: number): Promise<Tally> {
  const t = tally('wrong Basic credentials');
  for (let r = 0; r < rounds; r++) {
    for (const bytes of target.wrongCredentials ?? []) {
      const res = await exchange(target.port, bytes, 1);
      judge(t, res.statuses[0] === 401, `wrong credentials: ${res.statuses[0] ?? 'no answer'}`);
    }
  }
  return t;
}

/** `count` connections open at once, each sending one good request: every one answered 2xx. */
export async function concurrent(target: Target, count: number): Promise<Tally> {
  const t = tally(`${count} concurrent connections`);
  const results = await Promise.all(
    Array.from({ length: count }, () => exchange(target.port, target.good(serial++), 1, 20_000)),
  );
  for (const r of results)
    judge(
      t,
      (r.statuses[0] ?? 999) < 300,
      `concurrent: ${r.timedOut ? 'no answer in time' : (r.statuses[0] ?? 'closed')}`,
    );
  return t;
}

/**
 * Slow clients trickle a request a few bytes at a time; meanwhile good requests must be answered
 * as fast as without them (each within `fastMs`). The slow ones are left open (the server's
 * header and body timeouts are checked apart, with short limits).
 */
export async function slowClients(target: Target, slow: number, good: number, fastMs: number): Promise<Tally> {
  const t = tally(`${slow} slow clients trickling headers and bodies, ${good} good requests meanwhile`);
  const sockets: Socket[] = [];
  const timers: NodeJS.Timeout[] = [];
  for (let i = 0; i < slow; i++) {
    const bytes = target.good(serial++);
    const s = connect(target.port, '127.0.0.1');
    s.on('error', () => {});
    sockets.push(s);
    let at = i % 2 === 0 ? 0 : bytes.indexOf(CRLF + CRLF) + 4; // half trickle the headers, half the body
    if (at > 0) s.write(bytes.subarray(0, at));
    timers.push(setInterval(() => at < bytes.length - 1 && s.write(bytes.subarray(at, ++at)), 100));
  }
  try {
    for (let i = 0; i < good; i++) {
      const started = performance.now();
      const r = await exchange(target.port, target.good(serial++), 1, 5000);
      const ms = performance.now() - started;
      judge(
        t,
        (r.statuses[0] ?? 999) < 300 && ms < fastMs,
        `good request with slow clients around: ${r.statuses[0] ?? 'no answer'} in ${Math.round(ms)} ms`,
      );
    }
  } finally {
    for (const timer of timers) clearInterval(timer);
    for (const s of sockets) s.destroy();
  }
  return t;
}

/** Opens a connection that sends part of a request and stops; resolves with what the server did and when. */
export function stalled(
  port: number,
  bytes: Buffer,
  timeoutMs: number,
): Promise<{ status: number | undefined; closed: boolean; ms: number }> {
  const started = performance.now();
  return exchange(port, bytes, 1, timeoutMs).then((r) => ({
    status: r.statuses[0],
    closed: r.closed,
    ms: performance.now() - started,
  }));
}

/** Resident memory of a process, in MiB, from /proc (Linux). */
export function rssMiB(pid: number): number {
  const kb = Number(/VmRSS:\s+(\d+) kB/.exec(readFileSync(`/proc/${pid}/status`, 'utf8'))?.[1] ?? NaN);
  return Math.round((kb / 1024) * 10) / 10;
}
