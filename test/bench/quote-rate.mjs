/**
 * How many quote executions the emulator completes per second over loopback: quotes from the
 * platform's USD account to an external account are created first, then executed (each with its
 * own Idempotency-Key) by `concurrency` clients. Also reports create+execute pairs per second.
 * Not a test: run it after a build and read the figures.
 *
 *   npx tsc -p tsconfig.json && node test/bench/quote-rate.mjs [quotes=2000] [concurrency=8]
 *
 * The emulator runs in a child process so its CPU is not shared with the client. The timed
 * executions must move the money their quotes name (the source balance is compared before and
 * after) and a second execution of a quote must be refused: otherwise no figure is printed.
 */
import { fork } from 'node:child_process';
import { randomUUID } from 'node:crypto';
import { Agent, request } from 'undici';
import { serveEmulatorToParent } from './emulator-child.mjs';
import { prove, provedBench } from './proof.mjs';
import { usdPayoutAccounts } from './usd-payout.mjs';

const [quotesArg, concurrencyArg] = process.argv.slice(2).filter((a) => !a.startsWith('--'));
const total = Number(quotesArg ?? 2000);
const concurrency = Number(concurrencyArg ?? 8);

if (process.argv[2] === '--child') {
  await serveEmulatorToParent();
} else {
  await provedBench(async () => {
    const child = fork(new URL(import.meta.url).pathname, ['--child']);
    process.on('exit', () => child.kill());
    const { baseUrl, auth } = await new Promise((resolve) => child.once('message', resolve));
    const dispatcher = new Agent({ connections: concurrency, keepAliveTimeout: 10_000 });
    const call = async (method, path, body, headers = {}) => {
      const res = await request(baseUrl + path, {
        method,
        dispatcher,
        headers: { authorization: auth, ...(body ? { 'content-type': 'application/json' } : {}), ...headers },
        ...(body ? { body: JSON.stringify(body) } : {}),
      });
      const json = await res.body.json();
      return { status: res.statusCode, body: json };
    };
    const { source, destination } = await usdPayoutAccounts(call);
    const body = {
      source: { sourceType: 'ACCOUNT', accountId: source },
      destination: { destinationType: 'ACCOUNT', accountId: destination },
      lockedCurrencySide: 'SENDING',
      lockedCurrencyAmount: 1_000,
    };
    /** What each quote takes from the source: the same for every quote of this body. */
    let debit;
    const createQuote = async () => {
      const q = await call('POST', '/quotes', body);
      if (q.status !== 201) throw new Error(`quote: ${q.status} ${JSON.stringify(q.body)}`);
      debit ??= q.body.totalSendingAmount;
      prove(q.body.totalSendingAmount === debit && debit > 0, 'a quote named no amount to send');
      return q.body.id;
    };
    const balance = async () => (await call('GET', `/internal-accounts/${source}`)).body.balance.amount;
    const execute = async (id) => {
      const done = await call('POST', `/quotes/${id}/execute`, undefined, { 'idempotency-key': randomUUID() });
      if (done.status !== 200) throw new Error(`execute: ${done.status} ${JSON.stringify(done.body)}`);
    };
    const pool = async (n, work) => {
      let next = 0;
      await Promise.all(
        Array.from({ length: concurrency }, async () => {
          while (next < n) await work(next++);
        }),
      );
    };

    // Warm up (JIT, connections): without it the first phase measures the compiler.
    for (let i = 0; i < 1000; i++) await execute(await createQuote());
    const pairs = Math.ceil(total / 2);
    const pairsStarted = performance.now();
    await pool(pairs, async () => execute(await createQuote()));
    const pairsElapsed = (performance.now() - pairsStarted) / 1000;
    const ids = [];
    const createStarted = performance.now();
    await pool(total, async () => ids.push(await createQuote()));
    const createElapsed = (performance.now() - createStarted) / 1000;
    const before = await balance();
    child.send('mark');
    const started = performance.now();
    await pool(ids.length, async (i) => execute(ids[i]));
    const elapsed = (performance.now() - started) / 1000;
    const moved = before - (await balance());
    prove(moved === ids.length * debit, `${ids.length} executions moved ${moved}, not ${ids.length} × ${debit}`);
    const again = await call('POST', `/quotes/${ids[0]}/execute`, undefined, { 'idempotency-key': randomUUID() });
    prove(again.status === 409, `a second execution of a quote got ${again.status}, not 409`);
    const { cpuMs } = await new Promise((resolve) => {
      child.once('message', resolve);
      child.send('stop');
    });
    console.log(
      `${ids.length} quote executions in ${elapsed.toFixed(2)} s = ${(ids.length / elapsed).toFixed(0)} executions/s (concurrency ${concurrency}, loopback, emulator in a child process)`,
    );
    console.log(
      `${total} quote creations in ${createElapsed.toFixed(2)} s = ${(total / createElapsed).toFixed(0)} creations/s`,
    );
    console.log(
      `${pairs} create+execute pairs in ${pairsElapsed.toFixed(2)} s = ${(pairs / pairsElapsed).toFixed(0)} pairs/s`,
    );
    // Wall-clock rates swing with machine load; CPU time per execution is the emulator's own cost.
    console.log(
      `emulator CPU: ${(cpuMs / ids.length).toFixed(2)} ms per execution = ${(ids.length / (cpuMs / 1000)).toFixed(0)} executions per CPU-second`,
    );
    await dispatcher.close();
  });
}
