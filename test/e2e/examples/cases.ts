/**
 * How each example runs. An example not named in CASES runs to the end with its placeholders
 * filled (PLACEHOLDERS, values.ts) and must exit 0; CASES lists those that need more: their own resource
 * (an example that deletes or revokes must not take the fixture), a terminal for a prompt, a
 * server's bounded run, a fixed order, or an exclusion with its reason.
 */
import { mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { createStamp } from '../../../src/crypto/stamp.js';
import { createOtpTargetBundle } from '../../../src/crypto/bundles.js';
import { generateKeyPair } from '../../../src/crypto/keys.js';
import { LEGACY_BUNDLES } from '../../unit/crypto/vectors.js';
import type { World } from './world.js';
import {
  OTP_SIGNER,
  STAMP_KEY,
  delegatedKey,
  eeaCustomer,
  file,
  newAccount,
  newCustomer,
  newQuote,
  newToken,
  nonce,
  oauthCredential,
  passkeyCredential,
  profile,
  removableCredential,
  spareSession,
  transaction,
  type Value,
} from './values.js';

export interface Case {
  /** Not run, and why (the test lists these). */
  skip?: string;
  /** Expected exit code (default 0). */
  exit?: number;
  /** Stand-ins for this example only, by placeholder or variable name; these win over the shared ones. */
  values?: Record<string, Value>;
  /** Done first: files the line reads, profiles it names. */
  before?: (w: World) => Promise<void> | void;
  /** What stdin carries. */
  stdin?: string;
  /** Run on a terminal, answering each prompt. */
  terminal?: [RegExp, string][];
  /** A server: started, stopped with Ctrl-C once its output matches this; must then exit 0. */
  server?: RegExp;
  /** While the server runs (after it is ready). */
  during?: (w: World) => Promise<void>;
  /** Runs after the parallel ones, one at a time, in the order of this table. */
  serial?: true;
  /** Its own config folder (an emulator of its own), not the world's. */
  ownConfig?: true;
  /** Then, in the same folder and shell (e.g. stop what the example started). */
  after?: string[];
  /** What its output must show. */
  output?: RegExp;
}

const TYPE_CODE: [RegExp, string][] = [[/Enter the 6-digit code/, '000000\r']];
const CONFIRM: [RegExp, string][] = [[/\(y\/N\)/i, 'y\r']];
const LISTENING = /Listening for webhooks/;

export const CASES: Record<string, Case> = {
  // Servers: started, seen ready, stopped with Ctrl-C.
  'svc emulator start': { ownConfig: true, server: /Serving; press Ctrl-C/ },
  'svc --json emulator start --port 0 --processing-retries 2 --state emulator.json': {
    ownConfig: true,
    server: /"baseUrl"/,
  },
  'svc --json emulator start --detach --port 0 --jq .baseUrl': {
    ownConfig: true,
    after: ['svc emulator stop'],
    output: /^http:\/\/127\.0\.0\.1:\d+\/2025-10-13$/m,
  },
  'svc --json emulator start --detach --port 0 > emulator.json': { ownConfig: true, after: ['svc emulator stop'] },
  'svc emulator stop': { ownConfig: true },
  'svc emulator start --detach': { ownConfig: true, after: ['svc emulator stop'] },
  'svc emulator logs --follow --status 4xx': { server: /Following the request log/ },

  // Prompts, on a terminal.
  'svc otp verify --credential AuthMethod:<uuid>': { terminal: TYPE_CODE },
  // No --credential: the profile's is offered (yes is the default).
  'svc otp verify': {
    terminal: [
      [/Log in with AuthMethod:/, '\r'],
      [/Enter the 6-digit code/, '000000\r'],
    ],
  },
  'svc login otp --credential AuthMethod:<uuid>': { terminal: TYPE_CODE },
  'svc login otp --credential AuthMethod:…': { terminal: TYPE_CODE },
  'svc session revoke Session:<uuid>': { terminal: CONFIRM, values: { 'Session:<uuid>': spareSession } },
  'svc credentials remove AuthMethod:<uuid>': {
    terminal: CONFIRM,
    values: { 'AuthMethod:<uuid>': removableCredential },
  },
  // Bounded: the code typed at the prompt is accepted (the next step starts), then Ctrl-C.
  'svc demo --interactive': {
    terminal: [
      [/Enter the 6-digit code/, '000000\r'],
      [/Step 2\/\d+/, '\x03'],
    ],
    exit: 130,
  },
  'svc demo': {
    skip: 'the whole demo (about a minute here) is run, spawned the same way, by test/e2e/demo.test.ts; its closed-stdout and --keep runs by closed-pipes and first-run',
  },

  // Their own resource: they end it, or need one the fixtures lack.
  'svc --yes credentials remove AuthMethod:…': { values: { 'AuthMethod:…': removableCredential } },
  'svc --yes credentials remove AuthMethod:<uuid> --session Session:<uuid>': {
    values: { 'AuthMethod:<uuid>': removableCredential, 'Session:<uuid>': spareSession },
  },
  'svc auth credentials revoke AuthMethod:<uuid> --yes': { values: { 'AuthMethod:<uuid>': removableCredential } },
  'svc --yes session revoke Session:<uuid>': { values: { 'Session:<uuid>': spareSession } },
  'svc auth sessions revoke Session:<uuid> --yes': { values: { 'Session:<uuid>': spareSession } },
  'svc api DELETE /auth/sessions/Session:<uuid>': { values: { 'Session:<uuid>': spareSession } },
  'svc session use Session:<uuid>': { values: { 'Session:<uuid>': spareSession } },
  'svc customers delete Customer:<uuid> --yes': { values: { 'Customer:<uuid>': newCustomer } },
  'svc tokens get <tokenId>': { values: { '<tokenId>': newToken } },
  'svc tokens revoke <tokenId> --yes': { values: { '<tokenId>': newToken } },
  // One active delegated key per funding source: the one `delegated-keys create` made, then revoked.
  'svc auth delegated-keys get DelegatedKey:<uuid>': { serial: true, values: { 'DelegatedKey:<uuid>': delegatedKey } },
  'svc auth delegated-keys revoke DelegatedKey:<uuid> --yes': {
    serial: true,
    values: { 'DelegatedKey:<uuid>': delegatedKey },
  },
  'svc quotes execute Quote:<uuid>': { values: { 'Quote:<uuid>': newQuote } },
  'svc transactions get Transaction:<uuid>': { values: { 'Transaction:<uuid>': transaction } },
  'svc login oauth --credential AuthMethod:<uuid> --sandbox-token': {
    values: { 'AuthMethod:<uuid>': oauthCredential },
  },
  'svc login oauth --credential AuthMethod:… --sandbox-token': { values: { 'AuthMethod:…': oauthCredential } },
  'svc login oauth --credential AuthMethod:<uuid> --nonce': { values: { 'AuthMethod:<uuid>': oauthCredential } },
  'NONCE=$(svc login oauth --credential AuthMethod:… --nonce)': { values: { 'AuthMethod:…': oauthCredential } },
  'get-id-token --nonce "$NONCE" | svc login oauth --credential AuthMethod:… --token -': {
    serial: true,
    values: { 'AuthMethod:…': oauthCredential, NONCE: nonce },
  },
  'get-id-token --nonce "$NONCE" | svc login oauth --credential AuthMethod:<uuid> --token -': {
    serial: true,
    values: { 'AuthMethod:<uuid>': oauthCredential, NONCE: nonce },
  },
  // Serial, in the README's order: `svc login passkey` alone takes the only passkey held.
  'svc credentials add passkey --software --nickname "CI"': { serial: true },
  'svc login passkey': { serial: true },
  'svc credentials add passkey --software --nickname "CI runner"': { serial: true },
  'svc login passkey --credential AuthMethod:<uuid>': {
    serial: true,
    values: { 'AuthMethod:<uuid>': passkeyCredential },
  },
  // Serial: a refresh forgets the refreshed session's key, which a parallel example may be using.
  'svc session refresh': { serial: true },
  'svc --json session refresh Session:<uuid>': { serial: true },
  'svc auth sessions refresh Session:<uuid> --client-public-key 04<128 hex>': {
    serial: true,
    values: { 'Session:<uuid>': spareSession },
  },
  'svc auth credentials create --type EMAIL_OTP --account-id InternalAccount:<uuid>': {
    values: { 'InternalAccount:<uuid>': newAccount },
  },
  'svc cards reveal Card:<uuid> --open': { values: { SVC_BROWSER: () => 'true' } },

  // Keys: inputs made with the library's own crypto.
  'printf %s "$PAYLOAD" | svc keys stamp --private-key-file session.key': {
    before: file('session.key', `${STAMP_KEY.privateKey}\n`),
    values: { PAYLOAD: () => '{"type":"EXAMPLE"}' },
  },
  'svc keys verify-stamp --stamp "$STAMP" --payload-file payload.json': {
    before: file('payload.json', '{"type":"EXAMPLE"}'),
    values: { STAMP: () => createStamp('{"type":"EXAMPLE"}', STAMP_KEY.privateKey) },
  },
  'svc keys encrypt-otp --bundle "$BUNDLE" --code 000000 --signer "$SIGNER"': {
    values: {
      BUNDLE: () => createOtpTargetBundle(OTP_SIGNER.privateKey, generateKeyPair().publicKey),
      SIGNER: () => OTP_SIGNER.publicKey,
    },
  },
  'svc keys decrypt-bundle --bundle "$SEALED" --private-key-file new.key': {
    before: file('new.key', LEGACY_BUNDLES[1].privateKey),
    values: { SEALED: () => LEGACY_BUNDLES[1].bundle },
  },

  // Files in a user's home that a completion script goes into.
  'svc completion bash > ~/.local/share/bash-completion/completions/svc': {
    before: (w) => void mkdirSync(join(w.home, '.local/share/bash-completion/completions'), { recursive: true }),
  },
  'svc completion fish > ~/.config/fish/completions/svc.fish': {
    before: (w) => void mkdirSync(join(w.home, '.config/fish/completions'), { recursive: true }),
  },
  'svc completion zsh > "${fpath[1]}/_svc"': {
    skip: "zsh syntax ($fpath is zsh's array of function folders) and no zsh here; the same script goes to a file in the bash and fish lines, and test/e2e/completion-values.test.ts runs the zsh one",
  },
  'svc --profile sandbox auth status': {
    skip: 'asks the remote sandbox (the README sets that profile to api.lightspark.com); the tests reach loopback only, and auth status itself runs against the emulator in `svc auth status`',
  },

  // Serial: the listener registers itself as the endpoint, one at a time.
  'svc webhook listen': { serial: true, server: LISTENING },
  'svc webhook listen &': { serial: true, server: LISTENING },
  "svc webhook listen --events 'CARD_TRANSACTION.*'": { serial: true, server: LISTENING },
  'svc webhook listen --forward-to localhost:3000/webhooks --store seen.json': {
    serial: true,
    server: LISTENING,
    during: async (w) => {
      await w.raiseEvent();
      await w.eventually(() => w.app.received.length > 0, 'a forward to the app');
    },
  },
  'svc webhook replay --store seen.json --failed': { serial: true },
  'svc webhook replay --store seen.json --last 5': { serial: true },
  'svc webhook replay --store seen.json --failed --last 1 --to localhost:3001/hooks': { serial: true },
  'svc webhook replay --store seen.json --last 5 --to localhost:3000/webhooks': { serial: true },
  'svc platform-config update --webhook-endpoint https://example.com/webhooks': {
    serial: true,
    values: { 'https://example.com/webhooks': (w) => `http://${w.app.address}/webhooks` },
  },
  'svc webhook verify --public-key @webhook.pem --signature "$SIG" --body-file body.json': {
    serial: true,
    before: async (w) => {
      const d = await w.delivery();
      writeFileSync(join(w.cwd, 'webhook.pem'), w.ready.webhookPublicKey);
      writeFileSync(join(w.cwd, 'body.json'), d.body);
      w.values.SIG = String(d.headers['x-service-signature']);
    },
  },
  'svc webhook replay --since 1h': { serial: true },
  'svc webhook replay Webhook:<uuid> Webhook:<uuid>': {
    serial: true,
    values: { 'Webhook:<uuid>': async (w) => (await w.eventIds()).pop()! },
  },
  'svc webhook replay --type CARD.STATE_CHANGE,CUSTOMER.KYC_APPROVED --since 2026-11-26T09:00:00Z': { serial: true },
  'svc webhook replay --since 1d --to http://127.0.0.1:3000/hooks': { serial: true },
  'svc webhook replay --type CARD.STATE_CHANGE --since 2026-11-26T09:00:00Z --to http://127.0.0.1:3000/hooks': {
    serial: true,
  },

  // Serial: contact verification in its order.
  'svc customers verify-email Customer:<uuid>': { serial: true, values: { 'Customer:<uuid>': eeaCustomer } },
  'svc customers confirm-email Customer:<uuid> --code 123456': {
    serial: true,
    values: { 'Customer:<uuid>': eeaCustomer },
  },
  'svc customers verify-phone Customer:<uuid>': { serial: true, values: { 'Customer:<uuid>': eeaCustomer } },
  'svc customers confirm-phone Customer:<uuid> --code 123456': {
    serial: true,
    values: { 'Customer:<uuid>': eeaCustomer },
  },

  // Serial: an incoming payment waits for the platform's decision (the app answers 202).
  'svc transactions approve Transaction:<uuid>': {
    serial: true,
    values: { 'Transaction:<uuid>': (w) => w.pendingPayment() },
  },
  'svc transactions reject Transaction:<uuid> --reason "Invalid sender"': {
    serial: true,
    values: { 'Transaction:<uuid>': (w) => w.pendingPayment() },
  },
  'svc auth credentials verify AuthMethod:<uuid> --type EMAIL_OTP --encrypted-otp-bundle \'<bundle>\' --wallet-signature "$STAMP" --request-id "$REQUEST_ID"':
    {
      serial: true,
      before: async (w) => {
        const leg = await w.otpVerifyLeg();
        Object.assign(w.values, { STAMP: leg.stamp, REQUEST_ID: leg.requestId, BUNDLE_SEALED: leg.bundle });
      },
      values: { '<bundle>': (w) => w.values.BUNDLE_SEALED! },
    },

  // Serial: the active session ends; the next lines log in again.
  'svc --yes --json session revoke "$(svc --json session show --jq .id)"': {
    serial: true,
    after: ['svc otp verify --credential "$CREDENTIAL" --code 000000'],
  },

  // Serial: profiles, in an order where each finds what it names.
  'svc config rename default prod': { serial: true, before: profile('default') },
  'svc --profile prod config set base-url https://api.lightspark.com/grid/2025-10-13': { serial: true },
  'printf %s "$SECRET" | svc --profile prod config set api-client-secret -': {
    serial: true,
    values: { SECRET: () => 'a-client-secret' },
  },
  'svc --profile prod config unset access-token': { serial: true },
  'svc config delete staging': { serial: true, before: profile('staging'), terminal: CONFIRM },
  'svc --yes config delete staging': { serial: true, before: profile('staging') },
  'svc --profile sandbox config set base-url https://api.lightspark.com/grid/2025-10-13': { serial: true },
  'svc --profile sandbox config set api-token-id <token id>': { serial: true },
  'svc --profile sandbox config set api-client-secret -': { serial: true, stdin: 'a-client-secret\n' },
  'svc config use sandbox': { serial: true, after: ['svc config use local'] },
  'svc config use local': { serial: true },
  'svc config get base-url': { serial: true },
  'svc --profile local config get otp-signer': { serial: true },
  'svc config set webhook-public-key @webhook.pem': {
    serial: true,
    before: (w) => writeFileSync(join(w.cwd, 'webhook.pem'), w.ready.webhookPublicKey),
  },
  'svc config unset otp-signer': { serial: true },

  // Serial and last: they change the fixtures others use.
  'svc internal-accounts update InternalAccount:<uuid> --private-enabled true': { serial: true },
  'svc cards update Card:<uuid> --state FROZEN': { serial: true },
  'svc cards update "$(svc emulator status --jq .fixtures.cardId)" --state FROZEN': { serial: true },
};
