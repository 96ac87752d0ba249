/**
 * The embedded sandbox emulator: `startEmulator(options)` serves the spec's sandbox over HTTP and
 * resolves once it listens. See DESIGN.md "The embedded emulator" and the module headers for the
 * behaviours (auth-otp, sessions, refresh, sandbox, cards, webhooks).
 */
import type { AddressInfo } from 'node:net';
import { UsageError } from '../errors.js';
import { reachableOrigin } from '../reachable-origin.js';
import { EmulatorContext } from './context.js';
import { scheduleIssuance } from './cards.js';
import { ensureFixtures } from './fixtures.js';
import { StateFile } from './persistence.js';
import { buildRouter } from './routes.js';
import { VERSION_PREFIX, createEmulatorServer } from './server.js';
import { createInitialState, deserializeState, serializeState, type EmulatorFixtures } from './state.js';
import { resolveOptions, type EmulatorOptions } from './options.js';
import { testHooks, type TestHooks } from './test-hooks.js';
import { WebhookOutbox } from './webhooks.js';

export type { EmulatorLogEntry } from './context.js';
export type { EmulatorOptions } from './options.js';
export type { EmulatorFixtures } from './state.js';
export type { TestHooks } from './test-hooks.js';

export interface RunningEmulator extends TestHooks {
  baseUrl: string;
  apiTokenId: string;
  apiClientSecret: string;
  webhookPublicKey: string;
  otpSignerPublicKey: string;
  fixtures: EmulatorFixtures;
  close(): Promise<void>;
}

function loadState(file: StateFile | undefined) {
  const text = file?.read();
  if (text === undefined) return createInitialState();
  try {
    return deserializeState(text);
  } catch (error) {
    throw new UsageError(`Cannot use state file ${file!.path}: ${(error as Error).message}`, {
      field: 'state',
      hint: 'Point --state at a new file, or at one this emulator wrote.',
    });
  }
}

/** Forgets what has no use any more: expired challenges, OTP targets, reveal links, long-dead sessions. */
function sweep(emu: EmulatorContext): void {
  const now = emu.now();
  for (const [id, p] of emu.pending) if (p.expiresAtMs <= now) emu.pending.delete(id);
  for (const [id, targets] of emu.otpTargets) emu.otpTargets.set(id, targets.filter((t) => t.expiresAtMs > now));
  for (const [token, r] of emu.reveals) if (r.expiresAtMs <= now) emu.reveals.delete(token);
  for (const [id, c] of emu.passkeyChallenges) if (c.expiresAtMs <= now) emu.passkeyChallenges.delete(id);
  const dayAgo = now - 24 * 3600 * 1000;
  for (const [id, s] of emu.state.sessions) {
    if (s.expiresAtMs < dayAgo || (s.revokedAtMs ?? Infinity) < dayAgo) {
      emu.state.sessions.delete(id);
      emu.sessionKeys.get(s.publicKey)?.delete(id);
      emu.changed();
    }
  }
  emu.later(10_000, () => sweep(emu));
}

export async function startEmulator(options: EmulatorOptions = {}): Promise<RunningEmulator> {
  const opts = resolveOptions(options);
  const file = options.statePath ? new StateFile(options.statePath) : undefined;
  const state = loadState(file);
  const emu = new EmulatorContext(state, opts, file);
  emu.outbox = new WebhookOutbox(emu);
  file?.bind(() => serializeState(state));
  const fixtures = ensureFixtures(emu);

  const server = createEmulatorServer(emu, buildRouter());
  server.keepAliveTimeout = 5_000;
  await new Promise<void>((resolve, reject) => {
    server.once('error', (error: NodeJS.ErrnoException) => {
      if (error.code === 'EADDRINUSE') reject(new UsageError(`Port ${opts.port} on ${opts.host} is in use`, { field: 'port', hint: 'Pass --port 0 to pick a free port.' }));
      else reject(error);
    });
    server.listen(opts.port, opts.host, () => resolve());
  });
  emu.origin = reachableOrigin(opts.host, (server.address() as AddressInfo).port);

  emu.outbox.resume();
  for (const card of state.cards.values()) if (card.state === 'PROCESSING') scheduleIssuance(emu, card);
  sweep(emu);

  let closing: Promise<void> | undefined;
  const close = () =>
    (closing ??= (async () => {
      emu.stopTimers();
      const closed = new Promise<void>((resolve) => server.close(() => resolve()));
      server.closeAllConnections();
      await closed;
      await emu.outbox.close();
      emu.changed();
      await file?.flush();
    })());

  return {
    baseUrl: `${emu.origin}${VERSION_PREFIX}`,
    apiTokenId: state.apiTokenId,
    apiClientSecret: state.apiClientSecret,
    webhookPublicKey: state.webhookPublicKeyPem,
    otpSignerPublicKey: state.otpSignerPublicKey,
    fixtures: { ...fixtures },
    close,
    ...testHooks(emu, fixtures),
  };
}
