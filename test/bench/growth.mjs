/**
 * Does the emulator stay fast as its store grows? Creates `total` customers (each with its two
 * internal accounts) over loopback, `concurrency` at a time, and compares the creation rate of the
 * last `block` customers with the first `block`: a lookup that scans every stored record makes the
 * ratio fall as the store grows (a scan once gave 2,111/s for the first 3,000, 405/s after 60,000). It also
 * reports the emulator's memory per customer: heap and RSS after a forced GC, minus the same before,
 * and RSS as it was before that GC (what `ps` shows: garbage not yet collected included).
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
  /** Creates customers [from, to) and returns customers per second. */
  const run = async (from, to) => {
    let next = from;
    const started = performance.now();
    await Promise.all(
      Array.from({ length: concurrency }, async () => {
        while (next < to) await create(next++);
      }),
    );
    return (to - from) / ((performance.now() - started) / 1000);
  };

  // Warm up (JIT, connections) first: without it the first block measures the compiler.
  await run(-500, 0);
  const rates = [];
  for (let from = 0; from < total; from += block) rates.push(await run(from, Math.min(total, from + block)));
  const { memory: after } = await ask('memory');
  const first = rates[0];
  const last = rates[rates.length - 1];
  const perCustomer = (key) => (after[key] - before[key]) / (total + 500);
  console.log(`customers per second, per ${block}: ${rates.map((r) => r.toFixed(0)).join(' ')}`);
  console.log(
    `first ${block}: ${first.toFixed(0)}/s; last ${block} (after ${total - block}): ${last.toFixed(0)}/s; ratio ${(last / first).toFixed(2)}x (target at least 0.8x)`,
  );
  console.log(
    `memory per customer (with its 2 accounts), after GC: heap ${(perCustomer('heapUsed') / 1024).toFixed(2)} KiB, RSS ${(perCustomer('rss') / 1024).toFixed(2)} KiB (target at most 2 KiB); RSS without a forced GC ${(perCustomer('rawRss') / 1024).toFixed(2)} KiB`,
  );
  console.log(`answers other than 201: ${failures}`);
  child.send('stop');
  await dispatcher.close();
}
