/**
 * Does the emulator stay fast as its store grows? Creates `total` customers (each with its two
 * internal accounts) over loopback, `concurrency` at a time, in blocks of `block`, and compares the
 * throughput of the last block (ending with `total` customers stored) with the first measured one.
 * The first block is the warm-up (JIT, connections, the operation's validators read) and is not
 * measured; the second is "first". Throughput is counted two ways: customers per second of wall
 * time, and customers per second of the emulator process's own CPU time (user + system), which a
 * busy machine does not skew. A lookup that scans every stored record makes the ratio fall as the
 * store grows. It also reports the emulator's memory per customer: heap and RSS after a forced GC, minus the same before, and
 * RSS as it was before that GC (what `ps` shows: garbage not yet collected included).
 * Every create carries a platformCustomerId (the uniqueness check runs each time). Not a test.
 *
 *   npm run build && node test/bench/growth.mjs [customers=60000] [block=3000] [concurrency=8]
 *
 * The emulator runs in a child process (with --expose-gc) so its CPU and memory are its own.
 */
import { fork } from 'node:child_process';
import { Agent, request } from 'undici';

const [totalArg, blockArg, concurrencyArg] = process.argv.slice(2).filter((a) => !a.startsWith('--'));
const total = Number(totalArg ?? 60_000);
const block = Number(blockArg ?? 3_000);
const concurrency = Number(concurrencyArg ?? 8);

/** Memory as an outside observer sees it (rawRss: the process as it is), then after a forced GC. */
function memory() {
  const rawRss = process.memoryUsage().rss;
  globalThis.gc();
  const { rss, heapUsed } = process.memoryUsage();
  return { rawRss, rss, heapUsed };
}

if (process.argv[2] === '--child') {
  const { startEmulator } = await import('../../dist/src/emulator/index.js');
  const statePath = process.env.SVC_BENCH_STATE; // as in emulator-child.mjs
  const emu = await startEmulator({ port: 0, ...(statePath ? { statePath } : {}) });
  process.send({
    baseUrl: emu.baseUrl,
    auth: `Basic ${Buffer.from(`${emu.apiTokenId}:${emu.apiClientSecret}`).toString('base64')}`,
    memory: memory(),
  });
  process.on('message', async (message) => {
    if (message === 'memory') return process.send({ memory: memory() });
    if (message === 'cpu') {
      const used = process.cpuUsage();
      return process.send({ cpuMs: (used.user + used.system) / 1000 });
    }
    await emu.close();
    process.exit(0);
  });
} else {
  const child = fork(new URL(import.meta.url).pathname, ['--child'], { execArgv: ['--expose-gc'] });
  const ask = (message) =>
    new Promise((resolve) => {
      child.once('message', resolve);
      if (message) child.send(message);
    });
  const { baseUrl, auth, memory: before } = await ask();
  const dispatcher = new Agent({ connections: concurrency, keepAliveTimeout: 10_000 });
  let failures = 0;
  const create = async (i) => {
    const res = await request(`${baseUrl}/customers`, {
      method: 'POST',
      dispatcher,
      headers: { authorization: auth, 'content-type': 'application/json' },
      body: JSON.stringify({
        customerType: 'INDIVIDUAL',
        fullName: `Growth Bench ${i}`,
        platformCustomerId: `bench-${i}`,
      }),
    });
    await res.body.text();
    if (res.statusCode !== 201) failures++;
  };
  /** Creates customers [from, to): customers per second of wall time and of the emulator's CPU time. */
  const run = async (from, to) => {
    let next = from;
    const cpuBefore = (await ask('cpu')).cpuMs;
    const started = performance.now();
    await Promise.all(
      Array.from({ length: concurrency }, async () => {
        while (next < to) await create(next++);
      }),
    );
    const wallMs = performance.now() - started;
    const cpuMs = (await ask('cpu')).cpuMs - cpuBefore;
    return { wall: ((to - from) * 1000) / wallMs, cpu: ((to - from) * 1000) / cpuMs };
  };

  // The first block warms up (JIT, connections, the validators' first read) and is not measured.
  await run(0, Math.min(total, block));
  const rates = [];
  for (let from = block; from < total; from += block) rates.push(await run(from, Math.min(total, from + block)));
  const { memory: after } = await ask('memory');
  const first = rates[0];
  const last = rates[rates.length - 1];
  const perCustomer = (key) => (after[key] - before[key]) / total;
  const list = (kind) => rates.map((r) => r[kind].toFixed(0)).join(' ');
  console.log(`warm-up: customers 1-${block}, not measured`);
  console.log(`customers per second of wall time, per ${block}: ${list('wall')}`);
  console.log(`customers per second of emulator CPU time, per ${block}: ${list('cpu')}`);
  console.log(
    `throughput ratio last/first, warm-up excluded (first: customers ${block + 1}-${2 * block}; last: ${total - block + 1}-${total}, ending with ${total} stored; goal at least 0.80): emulator CPU ${(last.cpu / first.cpu).toFixed(2)} (${first.cpu.toFixed(0)}/s → ${last.cpu.toFixed(0)}/s), wall ${(last.wall / first.wall).toFixed(2)} (${first.wall.toFixed(0)}/s → ${last.wall.toFixed(0)}/s)`,
  );
  console.log(
    `memory per customer (with its 2 accounts), after GC: heap ${(perCustomer('heapUsed') / 1024).toFixed(2)} KiB, RSS ${(perCustomer('rss') / 1024).toFixed(2)} KiB (target at most 2 KiB); RSS without a forced GC ${(perCustomer('rawRss') / 1024).toFixed(2)} KiB`,
  );
  console.log(`answers other than 201: ${failures}`);
  child.send('stop');
  await dispatcher.close();
}
