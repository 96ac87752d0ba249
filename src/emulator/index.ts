/**
 * The embedded sandbox emulator: `startEmulator(options)` serves the spec's sandbox over HTTP and
 * resolves once it listens. The kernel (kernel/) runs the areas listed in features.ts; see README.md.
 */
import type { AddressInfo } from 'node:net';
import { UsageError } from '../errors.js';
import { reachableOrigin } from '../reachable-origin.js';
import { FEATURES, type EmulatorFixtures } from './features.js';
import { authorizationChecker, type Authenticator } from './kernel/auth.js';
import { VirtualClock } from './kernel/clock.js';
import { clockRoutes } from './kernel/clock-routes.js';
import { EmulatorContext } from './kernel/context.js';
import { dashboardRoutes } from './dashboard/routes.js';
import { Dashboard } from './dashboard/serve.js';
import { resolveOptions, type EmulatorOptions, type ResolvedOptions } from './options.js';
import { WebhookOutbox } from './kernel/outbox.js';
import { webhookEvents } from './kernel/event-log.js';
import { idempotentAnswers } from './kernel/idempotency.js';
import { type Route, Router } from './kernel/router.js';
import { VERSION_PREFIX, createEmulatorServer } from './kernel/server.js';
import { CORE_KEYS, createCoreState, deserializeState, serializeState, type CoreState } from './kernel/state.js';
import type { AnyFeature, FixtureKeysOf, TestHooksOf } from './kernel/feature.js';
import { ensureFixtures, type Fixtures } from './kernel/fixtures.js';
import { StateFile } from './kernel/state-file.js';
import { startSweeper } from './kernel/sweeper.js';
import { TableSet } from './kernel/tables.js';
import { testingHooks, type KernelTestHooks, type TestingHooks } from './testing.js';

export type { EmulatorOptions } from './options.js';
export type { EmulatorFixtures } from './features.js';

export interface RunningEmulator<F = EmulatorFixtures, T = TestingHooks> {
  baseUrl: string;
  /** The dashboard page, with this start's access token (dashboard/access.ts). */
  dashboardUrl: string;
  apiTokenId: string;
  apiClientSecret: string;
  webhookPublicKey: string;
  otpSignerPublicKey: string;
  fixtures: F;
  /** Shortcuts for tests (a session for a known key, moving the clock…); not part of the service. */
  testing: T;
  close(): Promise<void>;
}

function loadCore(file: StateFile | undefined, tables: TableSet): CoreState {
  const text = file?.read();
  if (text === undefined) return createCoreState();
  try {
    return deserializeState(text, tables);
  } catch (error) {
    throw new UsageError(`Cannot use state file ${file!.path}: ${(error as Error).message}`, {
      input: '--state',
      reason: 'STATE_FILE_INVALID',
      hint: 'Fix or remove what is named in the file by hand, or point --state at a new file (this one is left as it was).',
    });
  }
}

function routers(features: readonly AnyFeature[], emulatorRoutes: Route[]): { api: Router; unversioned: Router } {
  const all = features.flatMap((f) => f.routes ?? []);
  return {
    api: new Router().add(all.filter((r) => !r.unversioned)),
    unversioned: new Router().add([...clockRoutes, ...emulatorRoutes, ...all.filter((r) => r.unversioned)]),
  };
}

export async function startEmulator(options: EmulatorOptions = {}): Promise<RunningEmulator> {
  return (await startAreas(FEATURES, resolveOptions(options), options.statePath)) as RunningEmulator;
}

/**
 * The kernel serving `features`, with options already resolved. startEmulator runs every area of
 * features.ts; the test of an area kept out of that list (template/) runs it alone.
 */
export async function startAreas<F extends AnyFeature>(
  features: readonly F[],
  opts: ResolvedOptions,
  statePath?: string,
): Promise<RunningEmulator<Fixtures<FixtureKeysOf<F>>, KernelTestHooks & TestHooksOf<F>>> {
  const file = statePath ? new StateFile(statePath, opts.warn) : undefined;
  try {
    return await serve(features, opts, file);
  } catch (error) {
    file?.release();
    throw error;
  }
}

async function serve<F extends AnyFeature>(
  features: readonly F[],
  opts: ResolvedOptions,
  file: StateFile | undefined,
): Promise<RunningEmulator<Fixtures<FixtureKeysOf<F>>, KernelTestHooks & TestHooksOf<F>>> {
  let dashboard: Dashboard | undefined;
  const tables = new TableSet((table, id) => {
    file?.changed(table, id);
    dashboard?.live.changed();
  }, CORE_KEYS);
  // The kernel's own tables: the outbox's event log, the Idempotency-Key answers.
  tables.register(webhookEvents);
  tables.register(idempotentAnswers);
  for (const feature of features) for (const def of feature.tables ?? []) tables.register(def);
  const core = loadCore(file, tables);
  const emu = new EmulatorContext({ core, opts, file, clock: new VirtualClock(opts.timeScale), tables });
  emu.outbox = new WebhookOutbox(emu);
  dashboard = new Dashboard(emu);
  file?.bind(() => serializeState(core, tables));
  for (const feature of features) feature.resume?.(emu);
  const fixtures = ensureFixtures(emu, features);
  await file?.saveAtStart();

  const schemes: Record<string, Authenticator> = Object.assign({}, ...features.map((f) => f.authSchemes ?? {}));
  const server = createEmulatorServer(
    emu,
    {
      ...routers(
        features,
        dashboardRoutes(() => dashboard.url),
      ),
      dashboard: dashboard.handle,
      authorize: authorizationChecker(
        emu,
        schemes,
        features.flatMap((f) => (f.basicCredentials ? [f.basicCredentials] : [])),
      ),
    },
    opts.requestTimeoutMs,
  );
  server.keepAliveTimeout = 5_000;
  await new Promise<void>((resolve, reject) => {
    server.once('error', (error: NodeJS.ErrnoException) => {
      if (error.code === 'EADDRINUSE')
        reject(
          new UsageError(`Port ${opts.port} on ${opts.host} is in use`, {
            input: '--port',
            hint: 'Pass --port 0 to pick a free port.',
          }),
        );
      else reject(error);
    });
    server.listen(opts.port, opts.host, () => resolve());
  });
  emu.origin = reachableOrigin(opts.host, (server.address() as AddressInfo).port);
  dashboard.listening(opts.host, (server.address() as AddressInfo).port);

  emu.outbox.resume();
  startSweeper(emu, features);

  let closing: Promise<void> | undefined;
  const close = () =>
    (closing ??= (async () => {
      emu.stopTimers();
      const closed = new Promise<void>((resolve) => server.close(() => resolve()));
      server.closeAllConnections();
      await closed;
      await emu.outbox.close();
      await file?.close();
    })());

  return {
    baseUrl: `${emu.origin}${VERSION_PREFIX}`,
    dashboardUrl: dashboard.url,
    apiTokenId: core.apiTokenId,
    apiClientSecret: core.apiClientSecret,
    webhookPublicKey: core.webhookPublicKeyPem,
    otpSignerPublicKey: core.otpSignerPublicKey,
    fixtures: { ...fixtures } as Fixtures<FixtureKeysOf<F>>,
    testing: testingHooks(emu, fixtures, features) as KernelTestHooks & TestHooksOf<F>,
    close,
  };
}
