/**
 * `svc webhook verify`: checks a saved delivery offline, the same check the listener makes. Prints
 * "valid" (exit 0) or fails with the reason (VerificationError, exit 1). The body is taken as exact
 * bytes: a reformatted or newline-terminated copy of the delivery will not verify, by design.
 */
import type { OptionsOf } from '../verb.js';
import type * as verbs from './verbs.js';
import type { Deps } from '../deps.js';
import { UsageError, VerificationError } from '../../src/errors.js';
import { createWebhookVerifier, parseWebhookPublicKey } from '../../src/crypto/webhook-signature.js';
import type { KeyObject } from 'node:crypto';
import { readFlagOrFile } from '../input.js';
import { NO_KEY_HINT, resolveWebhookKey, type WebhookKey } from './public-key.js';

export type VerifyOptions = OptionsOf<typeof verbs.verify>;

export async function run(opts: VerifyOptions, deps: Deps): Promise<void> {
  const body = await readBody(opts, deps);
  const key = await resolveWebhookKey(opts.publicKey, deps, () => deps.profile());
  if (!key)
    throw new UsageError('no webhook public key: pass --public-key', { input: '--public-key', hint: NO_KEY_HINT });
  const malformed = headerProblem(opts.signature);
  if (malformed) throw new VerificationError(`signature is malformed: ${malformed}`);
  if (!createWebhookVerifier(key.key)(body, opts.signature)) {
    throw new VerificationError(
      `signature does not verify over these ${body.length} body bytes with the key from ${key.source}`,
      { hint: await mismatchHint(key, deps) },
    );
  }
  const { ui } = deps;
  if (deps.globals.json) ui.json({ valid: true });
  else ui.out('valid');
}

async function readBody(opts: VerifyOptions, deps: Deps): Promise<Uint8Array> {
  const given = { text: opts.body, file: opts.bodyFile };
  const body = await readFlagOrFile(given, { text: '--body', file: '--body-file' }, deps);
  if (body === undefined) throw new UsageError('pass one of --body <text> or --body-file <path>', { input: '--body' });
  return body;
}

/** Why the header is neither {"v":"1","s":"<base64>"} nor bare base64, or undefined if it is one of them. */
function headerProblem(header: string): string | undefined {
  const text = header.trim();
  if (text === '') return 'empty';
  if (text.startsWith('{')) {
    let parsed: { v?: unknown; s?: unknown };
    try {
      parsed = JSON.parse(text) as { v?: unknown; s?: unknown };
    } catch {
      return 'not valid JSON';
    }
    if (parsed.v !== '1') return 'field "v" must be "1"';
    if (typeof parsed.s !== 'string' || parsed.s === '') return 'field "s" must be a base64 signature';
    return undefined;
  }
  return /^[A-Za-z0-9+/_-]+={0,2}$/.test(text) ? undefined : 'not {"v":"1","s":"<base64>"} nor a base64 signature';
}

const LOCAL = 'local';

/**
 * The emulator signs with its own key, which `svc emulator start` keeps in profile "local": a
 * delivery of the emulator checked with another key names that one and how to pass it.
 */
async function mismatchHint(used: WebhookKey, deps: Deps): Promise<string> {
  const base =
    "The body must be byte-identical to the delivery (no reformatting, no added newline) and the key must be the service's webhook key";
  const local = await deps.store().then(
    (store) => store.getProfile(LOCAL)?.webhookPublicKey,
    () => undefined,
  );
  if (!local || sameKey(used.key, local)) return `${base}.`;
  return `${base}; the emulator's is the webhook-public-key of profile "${LOCAL}": pass --public-key "$(svc --profile ${LOCAL} config get webhook-public-key)".`;
}

function sameKey(key: KeyObject, stored: string): boolean {
  try {
    return key.equals(parseWebhookPublicKey(stored));
  } catch {
    return false;
  }
}
