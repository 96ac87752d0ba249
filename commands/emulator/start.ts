/**
 * `svc emulator start`: runs the embedded sandbox until SIGINT/SIGTERM (deps.signal), then closes
 * it cleanly (the --state file gets a final save). Prints what a client needs to talk to it.
 */
import type { OptionsOf } from '../verb.js';
import type * as verbs from './verbs.js';
import type { Deps } from '../deps.js';
import { startEmulator, type RunningEmulator } from '../../src/emulator/index.js';
import { optionsFromFlags } from './options-from-flags.js';
import { claimFolder, DETACHED_CHILD_ENV } from './background.js';

export type StartOptions = OptionsOf<typeof verbs.start>;

/** The ready line: what a client needs to talk to the emulator. */
type Ready = ReturnType<typeof summary>;

function summary(emu: RunningEmulator) {
  return {
    baseUrl: emu.baseUrl,
    dashboardUrl: emu.dashboardUrl,
    apiTokenId: emu.apiTokenId,
    apiClientSecret: emu.apiClientSecret,
    webhookPublicKey: emu.webhookPublicKey,
    otpSignerPublicKey: emu.otpSignerPublicKey,
    fixtures: emu.fixtures,
  };
}

/**
 * The command to run next, as printed it runs: with the `local` profile current it needs no
 * more; without it (--no-profile) the connection goes in the environment.
 */
function nextCommand(emu: Ready, profile: boolean): string {
  const login = `svc otp verify --credential ${emu.fixtures.credentialId} --code 000000`;
  if (profile) return login;
  return `SERVICE_BASE_URL=${emu.baseUrl} SERVICE_API_TOKEN_ID=${emu.apiTokenId} SERVICE_API_CLIENT_SECRET=${emu.apiClientSecret} ${login}`;
}

function human(emu: Ready, next: { profile: boolean; where: string }): string {
  const f = emu.fixtures;
  return [
    `Emulator listening at ${emu.baseUrl}`,
    `Dashboard: ${emu.dashboardUrl}`,
    '',
    'HTTP Basic credentials',
    `  API token id:      ${emu.apiTokenId}`,
    `  API client secret: ${emu.apiClientSecret}`,
    '',
    'OTP signer public key (pin it; the OTP code is 000000)',
    `  ${emu.otpSignerPublicKey}`,
    '',
    'Webhook public key (verifies X-Service-Signature)',
    ...emu.webhookPublicKey
      .trim()
      .split('\n')
      .map((l) => `  ${l}`),
    '',
    'Fixtures',
    `  account (embedded wallet): ${f.accountId}`,
    `  credential (EMAIL_OTP):    ${f.credentialId}  ${f.email}`,
    `  customer (KYC APPROVED):   ${f.customerId}  ${f.phoneNumber} (for SMS_OTP)`,
    `  card (ACTIVE):             ${f.cardId}`,
    `  quote (awaiting payment):  ${f.quoteId}`,
    `  UMA address:               ${f.umaAddress}`,
    '',
    `Next, ${next.where}: ${nextCommand(emu, next.profile)}`,
  ].join('\n');
}

export async function run(opts: StartOptions, deps: Deps): Promise<void> {
  const { ui } = deps;
  if (opts.detach) {
    // Flags are checked by the child, which runs this same command line without --detach.
    const { startDetached } = await import('./detach.js');
    const { pid, ready, log } = await startDetached(process.argv.slice(2), deps);
    ui.result({ ...ready, pid }, () => {
      ui.out(human(ready as Ready, { profile: opts.profile, where: 'log in' }));
      ui.info(`Running in the background (pid ${pid}, log ${log}); stop it with \`svc emulator stop\`.`);
      if (opts.profile)
        ui.info(
          'Profile "local" is now current, until `svc emulator stop` hands back the one that was (--no-profile to skip).',
        );
    });
    return;
  }
  const options = optionsFromFlags(opts);
  if (deps.signal.aborted) return;

  // The child of `--detach` (detach.ts), and one that writes the `local` profile, hold the config
  // folder's pid file from before they listen: `emulator status` and `stop` find them, and a second
  // start cannot take over the first one's profile. With --no-profile in the foreground, any number run.
  const detached = deps.env[DETACHED_CHILD_ENV] === '1' && process.send !== undefined;
  const background = detached || opts.profile ? claimFolder((await deps.store()).dir, { detach: detached }) : undefined;
  const emu = await startEmulator({
    ...options,
    ...(deps.globals.verbose
      ? {
          log: (e) =>
            ui.info(
              `${e.kind} ${e.method ?? ''} ${e.path ?? ''} ${e.status ?? ''} ${e.ms !== undefined ? `${e.ms}ms` : ''} ${e.message ?? ''}`
                .replace(/\s+/g, ' ')
                .trim(),
            ),
        }
      : {}),
  }).catch((error: unknown) => {
    background?.release();
    throw error;
  });

  let restoreProfile = () => {};
  if (opts.profile) {
    // After this, every command works with no flags against this emulator.
    const [{ LOCAL_PROFILE, saveEmulatorProfile, restoreCurrentProfile }, store] = await Promise.all([
      import('../config/local-profile.js'),
      deps.store(),
    ]);
    const previous = saveEmulatorProfile(store, emu);
    ui.info(`Profile "${LOCAL_PROFILE}" written and made current until the emulator stops (--no-profile to skip).`);
    restoreProfile = () => {
      const restored = restoreCurrentProfile(store, previous);
      if (restored && !deps.globals.json) ui.info(`Profile "${restored}" is current again.`);
    };
  }

  background?.ready({
    baseUrl: emu.baseUrl,
    startedAt: new Date().toISOString(),
    timeScale: options.timeScale ?? 1,
    detached,
    ...(detached && { log: background!.log }),
    fixtures: { ...emu.fixtures },
  });
  if (detached) {
    // The ready line goes to the parent, not to the log: it carries the client secret.
    process.send!({ ready: summary(emu) }, () => process.disconnect());
    ui.info(`Emulator listening at ${emu.baseUrl} (pid ${process.pid}); \`svc emulator stop\` stops it.`);
  } else
    ui.result(summary(emu), () => {
      ui.out(human(emu, { profile: opts.profile, where: 'in another terminal, log in' }));
      ui.info('Serving; press Ctrl-C to stop.');
    });

  await new Promise<void>((resolve) => {
    if (deps.signal.aborted) resolve();
    else deps.signal.addEventListener('abort', () => resolve(), { once: true });
  });
  let stopFailure: unknown;
  try {
    await emu.close().catch((error: unknown) => {
      stopFailure = error;
      throw error;
    });
  } finally {
    restoreProfile();
    background?.release(stopFailure);
  }
  if (!deps.globals.json) ui.info('Emulator stopped.');
}
