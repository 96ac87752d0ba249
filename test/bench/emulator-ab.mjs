/**
 * The emulator's CPU cost per valid request, this checkout against another built one (an earlier
 * commit in a worktree), both running at once and fed alternately, block by block, so a machine's
 * changing load falls on both alike. Each block is the same mix of valid requests to each:
 * POST /customers, GET /customers/{id}, POST /quotes, POST /quotes/{id}/execute, GET /quotes/{id}.
 * The figure is each emulator's CPU time per request (median over blocks) and the median of the
 * per-block ratios. Not a test: run it after building both checkouts and read the figures.
 *
 *   npm run build && node test/bench/emulator-ab.mjs <other checkout> [blocks=15] [per block=200]
 *
 * SVC_BENCH_STATE=FOLDER: each emulator saves every change to its own --state file in FOLDER
 * (as `emulator start --state` does); without it both keep their state in memory. With
 * --memory-vs-state, the other emulator is this checkout's own, one with a state file in a temp
 * folder and one without: the cost of --state. With --without-request-check, the other emulator is
 * this checkout's own too, its request check (the schema check of kernel/request-check/ before
 * every handler) replaced by one that lets everything through (without-request-check.mjs, module
 * hooks in that process only): the cost of the check, in the same build.
 *
 * Every block is checked: each create must answer 201, each execute 200 and move the quote's
 * amount out of the source account, so an emulator that skips the work gets no figure. With
 * --without-request-check, an impossible birth date must be refused by the checked emulator and let
 * through by the other before anything is timed.
 */
import { fork } from 'node:child_process';
import { randomUUID } from 'node:crypto';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { register } from 'node:module';
import { join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { Agent, request } from 'undici';
import { prove, provedBench } from './proof.mjs';
import { usdPayoutAccounts } from './usd-payout.mjs';

const here = fileURLToPath(new URL('../..', import.meta.url));

if (process.argv[2] === '--child') {
  const [checkout, statePath] = process.argv.slice(3).filter((a) => !a.startsWith('--'));
  if (process.argv.includes('--without-request-check')) register('./without-request-check.mjs', import.meta.url);
  const { startEmulator } = await import(join(checkout, 'dist', 'src', 'emulator', 'index.js'));
  const emu = await startEmulator({ port: 0, ...(statePath ? { statePath } : {}) });
  process.send({
    baseUrl: emu.baseUrl,
    auth: `Basic ${Buffer.from(`${emu.apiTokenId}:${emu.apiClientSecret}`).toString('base64')}`,
  });
  process.on('message', async (message) => {
    if (message === 'cpu') {
      const used = process.cpuUsage();
      return process.send({ cpuMs: (used.user + used.system) / 1000 });
    }
    await emu.close();
    process.exit(0);
  });
} else {
  const memoryVsState = process.argv.includes('--memory-vs-state');
  const withoutCheck = process.argv.includes('--without-request-check');
  const positional = process.argv.slice(2).filter((a) => !a.startsWith('--'));
  const other = memoryVsState || withoutCheck ? here : positional.shift();
  if (!other) {
    console.error(
      'usage: node test/bench/emulator-ab.mjs <other checkout> [blocks] [per block] (or --memory-vs-state, or --without-request-check)',
    );
    process.exit(2);
  }
  const blocks = Number(positional[0] ?? 15);
  const perBlock = Number(positional[1] ?? 200);
  const scratch = mkdtempSync(join(tmpdir(), 'svc-bench-ab-'));
  const stateFolder = process.env.SVC_BENCH_STATE;
  const sides = memoryVsState
    ? [
        { name: 'this checkout, --state', checkout: here, state: join(scratch, 'state.json') },
        { name: 'this checkout, in memory', checkout: here },
      ]
    : withoutCheck
      ? [
          { name: 'this checkout, request check', checkout: here, checked: true },
          { name: 'this checkout, no request check', checkout: here, checked: false },
        ]
      : [
          { name: `this checkout (${here})`, checkout: here, state: stateFolder && join(stateFolder, 'this.json') },
          {
            name: `other (${resolve(other)})`,
            checkout: resolve(other),
            state: stateFolder && join(stateFolder, 'other.json'),
          },
        ];

  await provedBench(async () => {
    const children = [];
    try {
      for (const side of sides) {
        const child = fork(fileURLToPath(import.meta.url), [
          '--child',
          side.checkout,
          ...(side.state ? [side.state] : []),
          ...(side.checked === false ? ['--without-request-check'] : []),
        ]);
        children.push(child);
        Object.assign(side, await new Promise((ok) => child.once('message', ok)), { child, perRequest: [] });
        side.dispatcher = new Agent({ connections: 8, keepAliveTimeout: 10_000 });
        await setUp(side);
        if (side.checked !== undefined) await proveRequestCheck(side);
      }
      const ask = (side) =>
        new Promise((ok) => {
          side.child.once('message', (m) => ok(m.cpuMs));
          side.child.send('cpu');
        });
      // Warm up both (JIT, connections) before timing anything.
      for (const side of sides) await block(side, perBlock);
      const ratios = [];
      for (let b = 0; b < blocks; b++) {
        const order = b % 2 === 0 ? sides : [...sides].reverse();
        for (const side of order) {
          const before = await ask(side);
          const requests = await block(side, perBlock);
          side.perRequest.push(((await ask(side)) - before) / requests);
        }
        ratios.push(sides[0].perRequest[b] / sides[1].perRequest[b]);
      }
      for (const side of sides)
        console.log(
          `${side.name}: ${median(side.perRequest).toFixed(3)} ms CPU per valid request (median of ${blocks} blocks)`,
        );
      const ratio = median(ratios);
      // The spread says what the median can resolve: two identical emulators on a busy machine
      // differ by 10% and more in single blocks.
      const [low, high] = quartiles(ratios);
      console.log(
        `${sides[0].name} / ${sides[1].name}: ${ratio.toFixed(3)}× CPU per request (median of per-block ratios; quartiles ${low.toFixed(3)}–${high.toFixed(3)}) = ${((1 / ratio - 1) * 100).toFixed(1)}% throughput per CPU-second`,
      );
    } finally {
      for (const child of children) child.kill();
      for (const side of sides) await side.dispatcher?.close();
      rmSync(scratch, { recursive: true, force: true });
    }
  });
}

function median(xs) {
  return [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)];
}

/** The first and third quartiles (nearest rank). */
function quartiles(xs) {
  const sorted = [...xs].sort((a, b) => a - b);
  return [sorted[Math.floor((sorted.length - 1) / 4)], sorted[Math.ceil(((sorted.length - 1) * 3) / 4)]];
}

async function call(side, method, path, body, headers = {}) {
  const res = await request(side.baseUrl + path, {
    method,
    dispatcher: side.dispatcher,
    headers: { authorization: side.auth, ...(body ? { 'content-type': 'application/json' } : {}), ...headers },
    ...(body ? { body: JSON.stringify(body) } : {}),
  });
  return { status: res.statusCode, body: await res.body.json() };
}

/** A funded USD source and an external USD account to pay (usd-payout.mjs). */
async function setUp(side) {
  Object.assign(side, await usdPayoutAccounts((method, path, body) => call(side, method, path, body)));
  side.made = 0;
}

/** The request check runs where it should and only there: an impossible birth date is refused (400 naming it) or let through. */
async function proveRequestCheck(side) {
  const answer = await call(side, 'POST', '/customers', {
    customerType: 'INDIVIDUAL',
    fullName: 'Bench Probe',
    platformCustomerId: 'bench-ab-probe',
    birthDate: 'not-a-date',
  });
  const refused = answer.status === 400 && answer.body.details?.errors?.some((e) => e.field === 'birthDate');
  prove(
    refused === side.checked,
    `${side.name}: an impossible birth date answered ${answer.status} ${JSON.stringify(answer.body)}`,
  );
}

/** `n` rounds of the request mix, 4 at a time; returns how many requests were sent. */
async function block(side, n) {
  const balance = async () => (await call(side, 'GET', `/internal-accounts/${side.source}`)).body.balance.amount;
  const start = await balance();
  let debited = 0;
  let next = 0;
  const round = async () => {
    const i = side.made++;
    const customer = await call(side, 'POST', '/customers', {
      customerType: 'INDIVIDUAL',
      fullName: `Bench Customer ${i}`,
      platformCustomerId: `bench-ab-${i}`,
    });
    prove(customer.status === 201, `customer: ${customer.status} ${JSON.stringify(customer.body)}`);
    prove((await call(side, 'GET', `/customers/${customer.body.id}`)).status === 200, 'a customer made is not found');
    const quote = await call(side, 'POST', '/quotes', {
      source: { sourceType: 'ACCOUNT', accountId: side.source },
      destination: { destinationType: 'ACCOUNT', accountId: side.destination },
      lockedCurrencySide: 'SENDING',
      lockedCurrencyAmount: 1_000,
    });
    prove(quote.status === 201, `quote: ${quote.status} ${JSON.stringify(quote.body)}`);
    const done = await call(side, 'POST', `/quotes/${quote.body.id}/execute`, undefined, {
      'idempotency-key': randomUUID(),
    });
    prove(done.status === 200, `execute: ${done.status} ${JSON.stringify(done.body)}`);
    debited += quote.body.totalSendingAmount;
    prove((await call(side, 'GET', `/quotes/${quote.body.id}`)).status === 200, 'a quote made is not found');
  };
  await Promise.all(
    Array.from({ length: 4 }, async () => {
      while (next++ < n) await round();
    }),
  );
  prove(start - (await balance()) === debited, 'the executions did not move the money their quotes named');
  return n * 5 + 2;
}
