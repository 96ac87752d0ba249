/**
 * The mission, in order. Each step runs the real command's run() against the demo's store and
 * emulator, so the demo exercises exactly what a user would type; a few calls no command makes yet
 * (quote lookup, card issue and freeze) go through the same API client.
 */
import type { DemoContext } from './context.js';
import { LOCAL_PROFILE } from '../config/local-profile.js';
import type { Narrator } from './narrator.js';
import { cardWebhooks } from './card-webhooks.js';
import { quietly, revealMasked } from './reveal-masked.js';
import { SvcError } from '../../src/errors.js';
import { pathId } from '../../src/sandbox/api.js';

export interface DemoStep {
  title: string;
  explain: string;
  run(ctx: DemoContext, narrator: Narrator, state: DemoState): Promise<void>;
}

/** What one step hands to a later one. */
export interface DemoState {
  interactive: boolean;
  cardId?: string;
}

function activeSession(ctx: DemoContext): string {
  const id = ctx.store.getProfile(LOCAL_PROFILE)?.activeSessionId;
  if (!id) throw new SvcError('The profile has no active session.');
  return id;
}

export const STEPS: readonly DemoStep[] = [
  {
    title: 'OTP verify',
    explain:
      'Challenge the EMAIL_OTP credential, check the target bundle signer, HPKE-encrypt the code, sign the verify challenge with a fresh key.',
    async run(ctx, narrator, state) {
      if (!state.interactive) narrator.note('The sandbox code 000000 is entered for you (--interactive to type it).');
      const otp = await import('../otp/verify.js');
      await otp.run(
        { credential: ctx.emulator.fixtures.credentialId, code: state.interactive ? undefined : '000000' },
        ctx.deps,
      );
    },
  },
  {
    title: 'Session list',
    explain:
      "List the account's live sessions; * marks the active one, KEY HERE says the signing key is stored locally.",
    async run(ctx) {
      const list = await import('../session/list.js');
      await list.run({ account: ctx.emulator.fixtures.accountId }, ctx.deps);
    },
  },
  {
    title: 'Session refresh',
    explain: 'Two-step refresh with a fresh compressed key; the emulator answers 200 PROCESSING twice before the 201.',
    async run(ctx) {
      const refresh = await import('../session/refresh.js');
      await refresh.run({ legacy: false }, ctx.deps);
    },
  },
  {
    title: 'Legacy refresh',
    explain:
      'The deprecated flow: an uncompressed key, and the new session key arrives sealed in encryptedSessionSigningKey.',
    async run(ctx) {
      const refresh = await import('../session/refresh.js');
      await refresh.run({ legacy: true }, ctx.deps);
    },
  },
  {
    title: 'Sandbox fund',
    explain: 'Credit the internal account with 1,000.00 (100000 in the smallest unit).',
    async run(ctx) {
      const fund = await import('../sandbox/fund.js');
      await fund.run({ account: ctx.emulator.fixtures.accountId, amount: '100000' }, ctx.deps);
    },
  },
  {
    title: 'Sandbox send',
    explain: "Pay the real-time-funding quote's payment instructions, as the payer's bank would.",
    async run(ctx, narrator) {
      const { quoteId } = ctx.emulator.fixtures;
      const quote = await ctx.client.request<{ sendingCurrency?: { code?: string } | string }>({
        method: 'GET',
        path: `/quotes/${pathId(quoteId)}`,
        signal: ctx.deps.signal,
      });
      const sending = quote.body.sendingCurrency;
      const currency = (typeof sending === 'string' ? sending : sending?.code) ?? 'USD';
      narrator.note(`${quoteId} asks to be paid in ${currency}.`);
      const send = await import('../sandbox/send.js');
      await send.run({ quote: quoteId, currency }, ctx.deps);
    },
  },
  {
    title: 'Sandbox UMA receive',
    explain: 'Simulate incoming UMA payments; the magic sender addresses pick the outcome.',
    async run(ctx) {
      const uma = await import('../sandbox/uma-receive.js');
      const receiver = ctx.emulator.fixtures.umaAddress;
      await uma.run(
        { sender: '$success.usd@sandbox.example.com', receiver, currency: 'USD', amount: '2500' },
        ctx.deps,
      );
      await uma.run(
        { sender: '$fail.compliance.usd@sandbox.example.com', receiver, currency: 'USD', amount: '2500' },
        ctx.deps,
      );
    },
  },
  {
    title: 'Card webhooks',
    explain: 'Start a verifying webhook receiver, register it, then issue, freeze and unfreeze a card.',
    async run(ctx, narrator, state) {
      state.cardId = await cardWebhooks(ctx, narrator);
    },
  },
  {
    title: 'Cards reveal',
    explain: 'Fetch a short-lived panEmbedUrl for the live card; it is a bearer secret, so it is masked here.',
    async run(ctx, narrator, state) {
      await revealMasked(ctx, narrator, state.cardId ?? ctx.emulator.fixtures.cardId);
    },
  },
  {
    title: 'Session revoke',
    explain: 'Revoke the active session with a signed DELETE; its local key is deleted.',
    async run(ctx, narrator) {
      const revoke = await import('../session/revoke.js');
      const session = activeSession(ctx);
      if (!ctx.temporary) return revoke.run({ session }, ctx.deps);
      // The demo's emulator is gone once it ends: no hint to log in on it again, only what was done.
      const { keyForgotten } = await quietly<{ keyForgotten: boolean }>(ctx, (deps) => revoke.run({ session }, deps));
      narrator.line(`Revoked ${session}${keyForgotten ? '; its local key was deleted' : ''}.`);
    },
  },
];
