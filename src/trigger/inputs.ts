/**
 * A scenario on the integrator's own resources (a customer, account, external account or
 * credential), with request fields set by path (`path=value`). What each recipe can reuse and which
 * request fields it lets you set are data (input-rules.ts); every input is checked before any request
 * (unknown path, wrong type, a resource the scenario cannot use, a value that would change which magic
 * row applies), and a refusal names the input and why. Nothing given is ever dropped silently: a
 * recipe uses every input it accepts.
 */
import type { SignerTrust } from '../auth/signer-trust.js';
import { UsageError, type InputProblem } from '../errors.js';
import { idPattern } from '../service/index.js';
import { isCalendarDate } from '../date-time.js';
import type { Scenario } from './catalog.js';
import { RECIPE_INPUTS, type Kind, type ResourceOption } from './input-rules.js';

export { externalAccountMismatch, magicPath } from './input-rules.js';

export type { ResourceOption } from './input-rules.js';
type SetValue = string | number | boolean;

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

/** The inputs of a run, by their keys in RawInputs: what an error about one names as its `input`. */
export type TriggerInput = ResourceOption | 'set';

/** Each reusable resource's id kind, and what it is called in a sentence. */
const RESOURCES: Record<
  ResourceOption,
  { kind: 'Customer' | 'InternalAccount' | 'ExternalAccount' | 'AuthMethod'; noun: string }
> = {
  customer: { kind: 'Customer', noun: 'customer' },
  account: { kind: 'InternalAccount', noun: 'internal account' },
  externalAccount: { kind: 'ExternalAccount', noun: 'external account' },
  credential: { kind: 'AuthMethod', noun: 'credential' },
};

/** One refused input (src/errors.ts InputProblem): `message` is about the value (`takes path=value; got "x"`). */
export interface TriggerProblem extends InputProblem {
  input: TriggerInput;
  reason: string;
}

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
      return isCalendarDate(text) ? text : ['must be a date YYYY-MM-DD'];
    case 'country':
      return /^[A-Z]{2}$/.test(text) ? text : ['must be a two-letter country code like US'];
    default:
      return text.trim() === '' ? ['must not be empty'] : text;
  }
}

/** The scenario's inputs, checked: the typed values, and every refused input with why (none: all accepted). */
export function inputProblems(
  scenario: Scenario,
  raw: RawInputs,
): { inputs: TriggerInputs; problems: TriggerProblem[] } {
  const spec = RECIPE_INPUTS[scenario.recipe];
  const problems: TriggerProblem[] = [];
  const refuse = (input: TriggerInput, reason: string, message: string) => problems.push({ input, reason, message });
  const inputs: TriggerInputs = { set: {} };
  for (const option of Object.keys(RESOURCES) as ResourceOption[]) {
    const value = raw[option];
    if (value === undefined) continue;
    const { kind, noun } = RESOURCES[option];
    if (!idPattern(kind).test(value)) refuse(option, 'NOT_AN_ID', `must be an id like ${kind}:<uuid>; got "${value}"`);
    else if (!spec.reuse[option])
      refuse(
        option,
        'NOT_REUSABLE',
        `${scenario.name} cannot reuse your ${noun}: ${spec.refuse[option] ?? 'it signs in with no credential'}`,
      );
    else inputs[`${option}Id` as 'customerId' | 'accountId' | 'externalAccountId' | 'credentialId'] = value;
  }
  for (const item of raw.set) {
    const eq = item.indexOf('=');
    const path = eq > 0 ? item.slice(0, eq) : item;
    const settable = eq > 0 ? spec.set[path] : undefined;
    if (eq <= 0) refuse('set', 'NOT_PATH_VALUE', `takes path=value; got "${item}"`);
    else if (!settable)
      refuse(
        'set',
        'UNKNOWN_PATH',
        `${scenario.name} has no settable "${path}"; it takes ${Object.keys(spec.set).join(', ')}`,
      );
    else if (path in inputs.set) refuse('set', 'GIVEN_TWICE', `${path} is given twice`);
    else {
      const value = typed(settable.kind, item.slice(eq + 1));
      const why = Array.isArray(value) ? value[0] : settable.guard?.(String(value), scenario);
      if (why) refuse('set', 'BAD_VALUE', `${path}=${item.slice(eq + 1)}: ${why}`);
      else inputs.set[path] = value as SetValue;
    }
  }
  if (inputs.customerId && Object.keys(inputs.set).some((p) => p.startsWith('customer.'))) {
    refuse(
      'set',
      'CONFLICTING_INPUTS',
      'customer.… changes the customer the run would create, but the given customer is reused',
    );
  }
  if (spec.reuse.credential && raw.credential === undefined && !raw.defaultCredential) {
    refuse(
      'credential',
      'CREDENTIAL_REQUIRED',
      `${scenario.name} logs in with an EMAIL_OTP or SMS_OTP credential: give its AuthMethod:<uuid> (a started emulator prints one), or log in first so the active session's is used`,
    );
  } else if (spec.reuse.credential && raw.credential === undefined) inputs.credentialId = raw.defaultCredential;
  return { inputs, problems };
}

/** The scenario's inputs, or one UsageError naming every refused input (InputProblem) and why. */
export function checkInputs(scenario: Scenario, raw: RawInputs): TriggerInputs {
  const { inputs, problems } = inputProblems(scenario, raw);
  if (problems.length > 0)
    throw inputError(
      problems,
      `SCENARIOS gives each scenario's magic value; RECIPE_INPUTS what ${scenario.name} takes.`,
    );
  return inputs;
}

/**
 * The refusal of `problems`, with `hint`: `input` lists the inputs, `reason` is the problems' own when
 * they share one; each problem is said after its input's key (a CLI puts its flag there instead).
 */
export function inputError(problems: readonly TriggerProblem[], hint: string): UsageError {
  const reasons = new Set(problems.map((p) => p.reason));
  return new UsageError(problems.map((p) => `${p.input}: ${p.message}`).join('; '), {
    input: [...new Set(problems.map((p) => p.input))].join(','),
    reason: reasons.size === 1 ? [...reasons][0]! : 'INVALID_INPUTS',
    problems,
    hint,
  });
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
