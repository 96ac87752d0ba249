/** `svc emulator …`: the embedded sandbox. Declares flags only; the verb loads on run. */
import type { Command } from 'commander';
import { lazyAction } from '../lazy.cjs';

/** Adds the `emulator` verbs to the `emulator` command that commands/program.cts created. */
export function registerEmulator(emulator: Command): void {

  emulator
    .command('start')
    .description('run the emulator until Ctrl-C; prints its base URL, credentials, keys and fixtures (--json: one line)')
    .option('--host <host>', 'interface to listen on', '127.0.0.1')
    .option('--port <port>', 'port to listen on (0 picks a free one)', '4010')
    .option('--state <file>', 'load state from this file at start and save it there on every change')
    .option('--processing-retries <n>', 'answer 200 PROCESSING to the first N signed retries of each request', '0')
    .option('--session-ttl <seconds>', 'lifetime of new sessions', '900')
    .option('--duplicate-deliveries', 'deliver every webhook twice (same id) to exercise consumer dedupe')
    .option('--card-issuance <outcome>', 'how the issuer decides new cards: accept or reject', 'accept')
    .option('--time-scale <factor>', 'run the emulator clock this many times faster (60: the 6-minute delays take 6 s)', '1')
    .option('--no-profile', 'do not write the `local` profile or make it current')
    .action(
      lazyAction(() => import('./start.js'), (_a, o) => ({
        host: o.host as string,
        port: o.port as string,
        state: o.state as string | undefined,
        processingRetries: o.processingRetries as string,
        sessionTtl: o.sessionTtl as string,
        duplicateDeliveries: Boolean(o.duplicateDeliveries),
        cardIssuance: o.cardIssuance as string,
        timeScale: o.timeScale as string,
        profile: o.profile !== false,
      })),
    );
}
