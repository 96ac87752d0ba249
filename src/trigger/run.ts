/**
 * Runs one scenario: checks the token is a sandbox one (a production token gets 403 from sandbox
 * endpoints, and a scenario must never create real customers), builds the resources with the
 * recipe, and reports what the service answered.
 */
import type { ApiClient } from '../http/types.js';
import { ApiError, InterruptedError, SvcError } from '../errors.js';
import { tokenEnvironment } from '../sandbox/environment.js';
import { isNoRoute } from '../service/no-route.js';
import type { RecipeName, Scenario } from './catalog.js';
import type { Body, TriggerContext } from './context.js';
import type { EventLogReader } from './events.js';
import { magicPath, type TriggerInputs } from './inputs.js';
import { otpScenario } from './recipes/auth.js';
import { card } from './recipes/cards.js';
import { cardTransaction } from './recipes/card-transactions.js';
import { beneficialOwner, businessVerification, individualVerification } from './recipes/identity.js';
import { individualKyc } from './recipes/kyc.js';
import { beneficiaryVerification, externalTransfer, quoteExecution } from './recipes/money.js';
import { realtimeFunding, umaDestination } from './recipes/payments.js';

export interface TriggerReport {
  scenario: string;
  /** The magic value sent: the table's, or the one given in `inputs.set`. */
  magic: { field: string; value: string };
  resources: Record<string, string>;
  /** Roles in `resources` that were the caller's (a given customer or account); the rest were created. */
  reused: string[];
  observed: Body;
  events: string[];
}

export interface TriggerOptions {
  wait: boolean;
  /** Waits `ms` of the service's time between polls. */
  sleep(ms: number): Promise<void>;
  /** The service's time (service-clock.ts); without it, the time slept so far is the time passed. */
  now?(): Promise<number>;
  /** Said after the expected wait of a delayed outcome (how to make it shorter). */
  waitNote?: string;
  progress?(text: string): void;
  signal?: AbortSignal;
  /** Where the run's webhook events are read (the emulator's event log); without it `events` stays empty. */
  events?: EventLogReader;
  /** Checked with checkInputs: resources to reuse and values to set. */
  inputs?: TriggerInputs;
}

type Recipe = (ctx: TriggerContext, scenario: Scenario) => Promise<Body>;

/** One recipe per RecipeName, in the catalog's order (identity, money, payments, cards, auth). */
const RECIPES: Partial<Record<RecipeName, Recipe>> = {
  'individual-kyc': individualKyc,
  'individual-verification': individualVerification,
  'business-verification': businessVerification,
  'beneficial-owner': beneficialOwner,
  'external-transfer': externalTransfer,
  'beneficiary-verification': beneficiaryVerification,
  'quote-execution': quoteExecution,
  'realtime-funding': realtimeFunding,
  'uma-destination': umaDestination,
  card,
  'card-transaction': cardTransaction,
  'otp-login': otpScenario,
};

/** Whether this build has the scenario's recipe (the service must also offer the endpoints it uses). */
export function isRunnable(scenario: Scenario): boolean {
  return RECIPES[scenario.recipe] !== undefined;
}

/** The refusal for a production token: sandbox endpoints answer it 403. */
export class ProductionTokenError extends SvcError {}

/** Refuses a production token before anything is created (src/sandbox/environment.ts asks). */
export async function assertSandbox(client: ApiClient, signal?: AbortSignal): Promise<void> {
  if ((await tokenEnvironment(client, signal)) !== 'production') return;
  throw new ProductionTokenError(
    'This API token is a production token: the service answered 403 to a sandbox endpoint, so the scenario created nothing.',
    {
      reason: 'PRODUCTION_TOKEN',
      hint: 'Scenarios run only in the sandbox: use a sandbox token (SERVICE_API_TOKEN_ID / SERVICE_API_CLIENT_SECRET), or the emulator.',
    },
  );
}

/**
 * A run stopped (Ctrl-C) after it made some resources: their ids, so the user can look at them or
 * clean them up, as the finished run's report would have named them.
 */
export class ScenarioInterruptedError extends InterruptedError {
  constructor(
    readonly resources: Record<string, string>,
    readonly reused: string[],
    cause: unknown,
  ) {
    super('Interrupted', { cause });
  }
}

/** A route the service does not have: the scenario cannot run there, whatever the input. */
function missingRoute(error: unknown, baseUrl: string): unknown {
  if (error instanceof ApiError && error.status === 404 && isNoRoute(error.code, error.details) && !error.hint) {
    error.hint = `The service at ${baseUrl} does not offer ${error.method ?? ''} ${error.path ?? 'this endpoint'}; this scenario cannot run there yet.`;
  }
  return error;
}

/** The recipe of a scenario; an error saying so when this build has none yet. */
export function recipeFor(scenario: Scenario): Recipe {
  const recipe = RECIPES[scenario.recipe];
  if (recipe) return recipe;
  throw new SvcError(`This build cannot build ${scenario.name} yet: its recipe (${scenario.recipe}) is not written.`, {
    reason: 'NOT_RUNNABLE',
    hint: 'isRunnable() tells the scenarios this build can run.',
  });
}

export async function runScenario(client: ApiClient, scenario: Scenario, opts: TriggerOptions): Promise<TriggerReport> {
  const recipe = recipeFor(scenario);
  await assertSandbox(client, opts.signal);
  const inputs = opts.inputs ?? { set: {} };
  let slept = 0;
  const ctx: TriggerContext = {
    client,
    wait: opts.wait,
    sleep: async (ms) => {
      await opts.sleep(ms);
      slept += ms;
    },
    now: opts.now ?? (async () => slept),
    ...(opts.waitNote !== undefined && { waitNote: opts.waitNote }),
    progress: opts.progress ?? (() => {}),
    signal: opts.signal,
    resources: {},
    reused: [],
    inputs,
  };
  const path = magicPath(scenario);
  const magic =
    path && inputs.set[path] !== undefined
      ? { field: scenario.magic.field, value: String(inputs.set[path]) }
      : scenario.magic;
  try {
    const observed = await recipe(ctx, scenario);
    const events = opts.events ? await opts.events.read(new Set(Object.values(ctx.resources))) : [];
    return { scenario: scenario.name, magic, resources: ctx.resources, reused: ctx.reused, observed, events };
  } catch (error) {
    if (error instanceof InterruptedError || opts.signal?.aborted)
      throw new ScenarioInterruptedError({ ...ctx.resources }, [...ctx.reused], error);
    throw missingRoute(error, client.baseUrl);
  }
}
