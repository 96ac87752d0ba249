/**
 * A scenario on the integrator's own resources (a customer, account, external account or
 * credential), with request fields set by path (`path=value`). What each recipe can reuse and which
 * request fields it lets you set are data (input-rules.ts); every input is checked before any request
 * (unknown path, wrong type, a resource the scenario cannot use, a value that would change which magic
 * row applies), and a refusal names the input and why. Nothing given is ever dropped silently: a recipe uses every input it accepts.
 */
import type { SignerTrust } from '../auth/signer-trust.js';
import { UsageError } from '../errors.js';
import { idPattern } from '../service/index.js';
import type { Scenario } from './catalog.js';
import { RECIPE_INPUTS, type Kind, type ResourceOption } from './input-rules.js';

export { externalAccountMismatch, magicPath } from './input-rules.js';

export type { ResourceOption } from './input-rules.js';
export type SetValue = string | number | boolean;

export interface TriggerInputs {
  customerId?: string;
  accountId?: string;
  externalAccountId?: string;
  /** An EMAIL_OTP or SMS_OTP credential (auth.*): the given one, or the active session's. */
  credentialId?: string;
  /** Which OTP bundle signers the profile trusts at this base URL (auth.*); none: any self-consistent one. */
  otpTrust?: SignerTrust;
  /** Values to set by full path (`customer.birthDate`), typed. */
  set: Record<string, SetValue>;
}

export interface RawInputs {
  customer?: string;
  account?: string;
  externalAccount?: string;
  credential?: string;
  /** The credential of the profile's active session, used by auth.* when none is given. */
  defaultCredential?: string;
  set: readonly string[];
}

/** Each reusable resource's flag and id kind. */
export const RESOURCE_FLAGS: Record<
  ResourceOption,
  { flag: string; kind: 'Customer' | 'InternalAccount' | 'ExternalAccount' | 'AuthMethod' }
> = {
  customer: { flag: '--customer', kind: 'Customer' },
  account: { flag: '--account', kind: 'InternalAccount' },
  externalAccount: { flag: '--external-account', kind: 'ExternalAccount' },
  credential: { flag: '--credential', kind: 'AuthMethod' },
};

function typed(kind: Kind, text: string): SetValue | string[] {
  switch (kind) {
    case 'integer':
    case 'amount': {
      if (!/^-?\d+$/.test(text)) return ['must be a whole number'];
      const n = Number(text);
      if (!Number.isSafeInteger(n)) return ['is too large'];
      if (kind === 'amount' && n < 1) return ['must be at least 1 (smallest currency unit)'];
      return n;
    }
    case 'date':
      return /^\d{4}-\d{2}-\d{2}$/.test(text) && !Number.isNaN(Date.parse(text)) ? text : ['must be a date YYYY-MM-DD'];
    case 'country':
      return /^[A-Z]{2}$/.test(text) ? text : ['must be a two-letter country code like US'];
    default:
      return text.trim() === '' ? ['must not be empty'] : text;
  }
}

/** The scenario's inputs, or one UsageError naming every refused option and why. */
export function checkInputs(scenario: Scenario, raw: RawInputs): TriggerInputs {
  const spec = RECIPE_INPUTS[scenario.recipe];
  const problems: { flag: string; why: string }[] = [];
  const inputs: TriggerInputs = { set: {} };
  for (const option of Object.keys(RESOURCE_FLAGS) as ResourceOption[]) {
    const value = raw[option];
    if (value === undefined) continue;
    const { flag, kind } = RESOURCE_FLAGS[option];
    if (!idPattern(kind).test(value))
      problems.push({ flag, why: `${flag} must be an id like ${kind}:<uuid>; got "${value}"` });
    else if (!spec.reuse[option])
      problems.push({
        flag,
        why: `${scenario.name} cannot use ${flag}: ${spec.refuse[option] ?? 'it signs in with no credential'}`,
      });
    else inputs[`${option}Id` as 'customerId' | 'accountId' | 'externalAccountId' | 'credentialId'] = value;
  }
  for (const item of raw.set) {
    const eq = item.indexOf('=');
    const path = eq > 0 ? item.slice(0, eq) : item;
    const settable = eq > 0 ? spec.set[path] : undefined;
    if (eq <= 0) problems.push({ flag: '--set', why: `--set takes path=value; got "${item}"` });
    else if (!settable)
      problems.push({
        flag: '--set',
        why: `${scenario.name} has no settable "${path}"; it takes ${Object.keys(spec.set).join(', ')}`,
      });
    else if (path in inputs.set) problems.push({ flag: '--set', why: `--set ${path} is given twice` });
    else {
      const value = typed(settable.kind, item.slice(eq + 1));
      const why = Array.isArray(value) ? value[0] : settable.guard?.(String(value), scenario);
      if (why) problems.push({ flag: '--set', why: `--set ${path}=${item.slice(eq + 1)}: ${why}` });
      else inputs.set[path] = value as SetValue;
    }
  }
  if (inputs.customerId && Object.keys(inputs.set).some((p) => p.startsWith('customer.'))) {
    problems.push({
      flag: '--set',
      why: '--set customer.… changes the customer svc would create, but --customer reuses yours',
    });
  }
  if (spec.reuse.credential && raw.credential === undefined && !raw.defaultCredential) {
    problems.push({
      flag: '--credential',
      why: `${scenario.name} logs in with an EMAIL_OTP or SMS_OTP credential: pass --credential AuthMethod:<uuid> (svc emulator start prints one), or log in first so the active session's is used`,
    });
  } else if (spec.reuse.credential && raw.credential === undefined) inputs.credentialId = raw.defaultCredential;
  if (problems.length > 0) {
    throw new UsageError(problems.map((p) => p.why).join('; '), {
      input: [...new Set(problems.map((p) => p.flag))].join(','),
      hint: `svc trigger --list shows each scenario's magic value; \`svc trigger ${scenario.name} --help\` the options.`,
    });
  }
  return inputs;
}

/** A request body with the values to set under `prefix` (`customer`, `quote`, …) put in place. */
export function withSet<T extends object>(inputs: TriggerInputs | undefined, prefix: string, body: T): T {
  const out = structuredClone(body) as Record<string, unknown>;
  for (const [path, value] of Object.entries(inputs?.set ?? {})) {
    if (!path.startsWith(`${prefix}.`)) continue;
    const keys = path.slice(prefix.length + 1).split('.');
    let node = out;
    for (const key of keys.slice(0, -1)) node = (node[key] ??= {}) as Record<string, unknown>;
    node[keys[keys.length - 1]!] = value;
  }
  return out as T;
}
