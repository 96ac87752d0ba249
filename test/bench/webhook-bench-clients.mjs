/**
 * Load generators for webhook-bench.mjs. Each drives one server with a list of deliveries and
 * returns the wall time, per-request latencies and its own CPU per request, so the report can show
 * whether the client, not the server, set the pace.
 *
 * - undici: a keep-alive Pool, what an HTTP client library (and the emulator's outbox) costs.
 * - raw: keep-alive sockets writing pre-built request bytes and reading just enough of each answer
 *   (status, Content-Length) to count it: a few µs of client CPU a request, so a bare node:http
 *   server is measured rather than the client in front of it. `depth` > 1 pipelines requests.
 */
import { connect } from 'node:net';
import { Pool } from 'undici';

/** A delivery as each client needs it: body + headers for undici, the whole request for raw. */
export function prepare(body, signature, path) {
  const headers = { 'content-type': 'application/json', 'x-service-signature': signature };
  const wire = Buffer.from(
    `POST ${path} HTTP/1.1\r\nHost: 127.0.0.1\r\nContent-Type: application/json\r\nX-Service-Signature: ${signature}\r\n` +
      `Content-Length: ${Buffer.byteLength(body)}\r\n\r\n${body}`,
  );
  return { body, headers, wire };
}

const cpuMicros = (since) => {
  const u = process.cpuUsage(since);
  return u.user + u.system;
};

export function undiciClient(origin, path, connections) {
  const pool = new Pool(origin, { connections, pipelining: 1, keepAliveTimeout: 30_000 });
  return {
    name: `undici ${connections} conns`,
    async drive(deliveries) {
      const latencies = new Float64Array(deliveries.length);
      let next = 0;
      let failures = 0;
      const cpu0 = process.cpuUsage();
      const t0 = process.hrtime.bigint();
      const worker = async () => {
        for (let i = next++; i < deliveries.length; i = next++) {
          const started = process.hrtime.bigint();
          const res = await pool.request({
            method: 'POST',
            path,
            body: deliveries[i].body,
            headers: deliveries[i].headers,
          });
          await res.body.dump();
          latencies[i] = Number(process.hrtime.bigint() - started) / 1e6;
          if (res.statusCode !== 200) failures++;
        }
      };
      await Promise.all(Array.from({ length: connections }, worker));
      const seconds = Number(process.hrtime.bigint() - t0) / 1e9;
      return { seconds, latencies, failures, clientCpuMicros: cpuMicros(cpu0) };
    },
    close: () => pool.close(),
  };
}

export function rawClient(port, connections, depth) {
  return {
    name: depth > 1 ? `raw ${connections}×${depth} pipelined` : `raw ${connections} conns`,
    async drive(deliveries) {
      // Connected before the clock starts: a bare server answers a whole burst in a few ms.
      const sockets = await Promise.all(Array.from({ length: connections }, () => open(port)));
      const latencies = new Float64Array(deliveries.length);
      let next = 0;
      let answered = 0;
      let failures = 0;
      const cpu0 = process.cpuUsage();
      const t0 = process.hrtime.bigint();
      await new Promise((resolve, reject) => {
        for (const socket of sockets) {
          const sent = []; // indexes in flight on this socket, oldest first (HTTP answers in order)
          let pending = Buffer.alloc(0);
          const pump = () => {
            const batch = [];
            while (sent.length < depth && next < deliveries.length) {
              const i = next++;
              sent.push([i, process.hrtime.bigint()]);
              batch.push(deliveries[i].wire);
            }
            if (batch.length > 0) socket.write(batch.length === 1 ? batch[0] : Buffer.concat(batch));
          };
          socket.on('error', reject);
          socket.on('data', (chunk) => {
            pending = pending.length === 0 ? chunk : Buffer.concat([pending, chunk]);
            for (;;) {
              const end = pending.indexOf('\r\n\r\n');
              if (end === -1) break;
              const head = pending.toString('latin1', 0, end);
              const match = /\r\ncontent-length: *(\d+)/i.exec(head);
              const total = end + 4 + (match ? Number(match[1]) : 0);
              if (pending.length < total) break;
              const [i, started] = sent.shift();
              latencies[i] = Number(process.hrtime.bigint() - started) / 1e6;
              if (!head.startsWith('HTTP/1.1 200')) failures++;
              pending = pending.subarray(total);
              answered++;
            }
            if (answered === deliveries.length) resolve();
            else pump();
          });
          pump();
        }
      });
      const seconds = Number(process.hrtime.bigint() - t0) / 1e9;
      const clientCpuMicros = cpuMicros(cpu0);
      for (const socket of sockets) socket.destroy();
      return { seconds, latencies, failures, clientCpuMicros };
    },
    close: async () => {},
  };
}

function open(port) {
  return new Promise((resolve, reject) => {
    const socket = connect(port, '127.0.0.1', () => resolve(socket));
    socket.setNoDelay(true);
    socket.once('error', reject);
  });
}
