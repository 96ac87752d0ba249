/** `svc webhook …`: receive and check the service's webhook deliveries. Declares flags only; each verb loads on run. */
import type { Command } from 'commander';
import { availableParallelism } from 'node:os';
import { lazyAction } from '../lazy.cjs';

/**
 * The listener verifies signatures on libuv's threadpool, which is 4 threads whatever the machine.
 * One thread per core does better both ways (test/bench/webhook-bench.mjs): on 2 cores, 5-10% less
 * CPU per delivery (fewer threads preempting the event loop); on more than 4, verification is no
 * longer capped at 4 threads. libuv reads the size once, when the pool first starts, which loading
 * the first ES module does: so it is set here, before the listen action imports anything.
 * An explicit UV_THREADPOOL_SIZE wins.
 */
function sizeThreadpoolForVerifying(): void {
  process.env.UV_THREADPOOL_SIZE ??= String(Math.max(2, availableParallelism()));
}

/** Adds the `webhook` verbs to the `webhook` command that commands/program.cts created. */
export function registerWebhook(webhook: Command): void {
  const listen = lazyAction(() => import('./listen.js'), (_a, o) => ({
    host: o.host as string,
    port: o.port as string,
    path: o.path as string,
    publicKey: o.publicKey as string | undefined,
    skipVerify: Boolean(o.skipVerify),
    events: o.events as string | undefined,
    forwardTo: o.forwardTo as string | undefined,
    store: o.store as string | undefined,
  }));

  webhook
    .command('listen')
    .description('run a local receiver that verifies, dedupes and prints deliveries (Ctrl-C to stop)')
    .option('--host <host>', 'address to listen on', '127.0.0.1')
    .option('--port <port>', 'port to listen on (0 picks a free one)', '4242')
    .option('--path <path>', 'URL path deliveries are POSTed to', '/webhooks')
    .option('--public-key <pem|hex|@file>', 'the service\'s webhook public key (env SERVICE_WEBHOOK_PUBKEY, or the profile)')
    .option('--skip-verify', 'accept deliveries without checking X-Service-Signature (unsafe; announced on every event)')
    .option('--events <types>', 'comma-separated event types to print and forward; others are acknowledged silently')
    .option('--forward-to <url>', 'forward each verified delivery, byte for byte, to your app; its errors go back to the service')
    .option('--store <file>', 'remember processed delivery ids in this file (fsync\'d; one listener at a time), so a restart still drops duplicates')
    .action((...args: unknown[]) => {
      sizeThreadpoolForVerifying();
      return listen(...args);
    });

  webhook
    .command('verify')
    .description('check a saved delivery\'s X-Service-Signature offline; prints "valid" or fails (exit 1)')
    .option('--public-key <pem|hex|@file>', 'the service\'s webhook public key (env SERVICE_WEBHOOK_PUBKEY, or the profile)')
    .requiredOption('--signature <header>', 'the X-Service-Signature header value')
    .option('--body <text>', 'the exact body as text')
    .option('--body-file <path>', 'read the exact body bytes from a file ("-" for stdin)')
    .action(
      lazyAction(() => import('./verify.js'), (_a, o) => ({
        publicKey: o.publicKey as string | undefined,
        signature: o.signature as string,
        body: o.body as string | undefined,
        bodyFile: o.bodyFile as string | undefined,
      })),
    );
}
