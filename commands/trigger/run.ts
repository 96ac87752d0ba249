/** `svc trigger`: lists the scenarios, or runs one and prints what the service answered. */
import type { OptionsOf } from '../verb.js';
import type * as verbs from './verbs.js';
import type { Deps } from '../deps.js';
import { UsageError } from '../../src/errors.js';
import { closest } from '../../src/closest.js';
import { abortableSleep } from '../../src/http/sleep.js';
import { SCENARIOS, findScenario, type Scenario } from '../../src/trigger/catalog.js';
import { recipeFor, runScenario, ScenarioInterruptedError } from '../../src/trigger/run.js';
import { emulatorEventLog } from '../../src/trigger/events.js';
import { mayBeEmulator } from '../../src/webhook-replay/replay.js';
import { inputError, inputProblems } from '../../src/trigger/inputs.js';
import { serviceClock } from '../../src/trigger/service-clock.js';
import { printInterrupted, printList, printReport } from './format.js';
import type { Profile } from '../../src/store/types.js';

export type TriggerOptions = OptionsOf<typeof verbs.trigger>;

/** The shortest real pause between two polls, however fast the emulator's clock runs. */
const MIN_POLL_MS = 50;
/** Said while --wait follows a delayed outcome on an emulator that runs at real speed. */
const TIME_SCALE_NOTE = 'an emulator started with --time-scale 600 takes about a second';

/** The scenario named, or a usage error suggesting the names that share its area. */
function chosenScenario(name: string | undefined): Scenario {
  if (name === undefined) {
    throw new UsageError('Name a scenario (svc trigger kyc.pending), or list them with --list.', {
      input: '<scenario>',
    });
  }
  const scenario = findScenario(name);
  if (scenario) return scenario;
  const nearest = closest(
    name.toLowerCase(),
    SCENARIOS.map((s) => s.name),
    Math.max(2, Math.floor(name.length / 3)),
  );
  const area = name.split('.')[0]!.toLowerCase();
  const near = SCENARIOS.filter((s) => s.area === area).map((s) => s.name);
  const listed = near.length ? ` ${area} has: ${near.join(', ')}.` : '';
  throw new UsageError(`No scenario "${name}".${nearest ? ` Did you mean ${nearest}?` : ''}${listed}`, {
    input: '<scenario>',
    hint: 'svc trigger --list shows every scenario.',
  });
}

/** For auth.*: the active session's credential and the profile (read from the store, no request). */
async function activeProfile(deps: Deps): Promise<{ credentialId?: string; name: string; profile: Profile }> {
  const [store, { name, effective }] = await Promise.all([deps.store(), deps.profile()]);
  const session = effective.activeSessionId ? store.getSession(effective.activeSessionId) : undefined;
  return { credentialId: session?.credentialId, name, profile: effective };
}

export async function run(opts: TriggerOptions, deps: Deps): Promise<void> {
  const { ui } = deps;
  if (opts.list) {
    if (opts.scenario !== undefined) throw new UsageError('--list takes no scenario name.', { input: '--list' });
    return printList(ui);
  }
  const scenario = chosenScenario(opts.scenario);
  recipeFor(scenario); // says so before anything is sent when this svc cannot build it
  const profile = scenario.recipe === 'otp-login' ? await activeProfile(deps) : undefined;
  const { inputs, problems } = inputProblems(scenario, {
    customer: opts.customer,
    account: opts.account,
    externalAccount: opts.externalAccount,
    credential: opts.credential,
    defaultCredential: profile?.credentialId,
    set: opts.set,
  });
  if (problems.length > 0)
    throw inputError(
      problems,
      `svc trigger --list shows each scenario's magic value; \`svc trigger ${scenario.name} --help\` the options.`,
    );
  const client = await deps.client();
  if (profile) {
    // The login's signer is checked against the profile's pins for this URL (a sandbox token's own first).
    // Loaded here: the check needs the curve, which no other scenario does.
    const [{ signerTrust }, { tokenEnvironment }, { settingCommands }] = await Promise.all([
      import('../../src/auth/signer-trust.js'),
      import('../../src/sandbox/environment.js'),
      import('../config/setting-commands.js'),
    ]);
    inputs.otpTrust = signerTrust({
      profile: profile.profile,
      profileName: profile.name,
      commands: settingCommands(profile.name),
      baseUrl: client.baseUrl,
      environment: () => tokenEnvironment(client, deps.signal),
    });
  }
  const local = await mayBeEmulator(client.baseUrl, async () => (await deps.store()).getProfile('local')?.baseUrl);
  if (opts.events && !local) {
    throw new UsageError(
      `--events reads the svc emulator's event log, and ${new URL(client.baseUrl).origin} is not the emulator (the service's API has no event list).`,
      {
        input: '--events',
        hint: 'Against the remote sandbox, watch the deliveries with svc webhook listen.',
      },
    );
  }
  const events = opts.events ? await emulatorEventLog(client, deps.signal) : undefined;
  // --wait measures delays on the service's clock: a time-scaled emulator is waited for at its speed.
  const clock = opts.wait ? await serviceClock(client, local, deps.signal) : undefined;
  // A --wait can last minutes: its steps (and the --time-scale tip) reach stderr under --json too.
  const progress = ui.progress(`${scenario.name}: checking the token is a sandbox one`, { underJson: opts.wait });
  let report;
  try {
    report = await runScenario(client, scenario, {
      wait: opts.wait,
      sleep: (ms) => abortableSleep(Math.max(MIN_POLL_MS, ms / (clock?.timeScale ?? 1)), deps.signal),
      ...(clock && { now: clock.now }),
      ...(clock?.emulator && clock.timeScale === 1 && { waitNote: TIME_SCALE_NOTE }),
      progress: (text) => progress.update(`${scenario.name}: ${text}`),
      signal: deps.signal,
      events,
      inputs,
    });
  } catch (error) {
    progress.fail(`${scenario.name} stopped`);
    if (error instanceof ScenarioInterruptedError) printInterrupted(ui, scenario, error);
    throw error;
  }
  progress.stop();
  ui.result(report, () => printReport(ui, scenario, report, opts.wait));
}
