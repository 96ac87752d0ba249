/**
 * The nouns of svc, in help order: each with its verbs (`<noun>/verbs.ts`), or a verb of its own
 * (`svc demo`). A new noun is one row here. Part of the command root, which loads on every run, so
 * it imports no verb's module (each loads when its verb runs) and only the verb specs of the
 * nouns that are themselves a command; the others' specs load when their noun is invoked.
 */
import type { Verb } from './verb.js';
import { apiVerb } from './api/verbs.js';
import { demoVerb } from './demo/verbs.js';
import { triggerVerb } from './trigger/verbs.js';
import { completionVerb, versionVerb } from './meta/verbs.js';
import { RESOURCE_NOUNS } from './resources/verbs.js';

/**
 * The headings `svc --help` lists the nouns under (as gh's "Core commands"), in this order: what a
 * user does day to day, the service's resources, the local emulator, and svc's own housekeeping.
 */
export const NOUN_GROUPS = {
  core: 'Core commands:',
  resources: 'Resource commands:',
  emulator: 'Emulator commands:',
  other: 'Other commands:',
} as const;

type NounGroup = keyof typeof NOUN_GROUPS;

/**
 * A noun has verbs (`svc session refresh`), or is itself the command (`svc demo`). A noun's verb
 * specs load when it is invoked (commands/main.ts): a command runs the top level of its own noun's
 * specs only, and `svc --help` of none.
 */
export type Noun = { name: string; description: string; group: NounGroup; aliases?: string[] } & (
  | { verbs: () => Promise<readonly Verb<never>[]> }
  | { action: Verb<never> }
);

/** A resource noun's verbs are all in the resource table (commands/resources/table.ts). */
const TABLE_ONLY = async (): Promise<readonly Verb<never>[]> => [];

/** The verbs of `noun`: its own specs and, for a resource noun, none (its table's are loaded apart). */
export async function verbsOf(noun: Noun): Promise<readonly Verb<never>[]> {
  return 'action' in noun ? [] : noun.verbs();
}

/**
 * The nouns, in help order within their group. The resource nouns (`customers`, `quotes`…) have
 * their verbs in the resource table (commands/resources/table.ts), loaded only when one of them is invoked.
 */
export const NOUNS: readonly Noun[] = [
  {
    name: 'login',
    group: 'core',
    description: 'log in with any credential type: otp, oauth or passkey',
    verbs: async () => (await import('./login/verbs.js')).loginVerbs,
  },
  {
    name: 'otp',
    group: 'core',
    description: 'log in with an email or SMS one-time password',
    verbs: async () => (await import('./otp/verbs.js')).otpVerbs,
  },
  {
    name: 'credentials',
    group: 'core',
    description: "list, add and remove an account's login credentials",
    verbs: async () => (await import('./credentials/verbs.js')).credentialsVerbs,
  },
  {
    name: 'session',
    group: 'core',
    description: 'list, refresh, revoke and switch auth sessions',
    verbs: async () => (await import('./session/verbs.js')).sessionVerbs,
  },
  {
    name: 'auth',
    group: 'core',
    description: "svc auth status; credentials, delegated keys and sessions, as the official CLI's auth",
    verbs: async () => (await import('./auth/verbs.js')).authVerbs,
  },
  {
    name: 'sandbox',
    group: 'core',
    description: 'simulate funding and payments in the sandbox',
    verbs: async () => (await import('./sandbox/verbs.js')).sandboxVerbs,
  },
  { name: 'trigger', group: 'core', description: triggerVerb.spec.description, action: triggerVerb },
  {
    name: 'webhook',
    group: 'core',
    description: "receive, verify and check the service's webhook deliveries",
    verbs: async () => (await import('./webhook/verbs.js')).webhookVerbs,
  },
  { name: 'api', group: 'core', description: apiVerb.spec.description, action: apiVerb },
  {
    name: 'cards',
    group: 'resources',
    description: 'list, issue, update and reveal cards',
    verbs: async () => (await import('./cards/verbs.js')).cardsVerbs,
  },
  ...RESOURCE_NOUNS.map((noun) => ({ ...noun, group: 'resources' as const, verbs: TABLE_ONLY })),
  {
    name: 'emulator',
    group: 'emulator',
    description: 'the embedded sandbox emulator (a local server that behaves like the sandbox)',
    verbs: async () => (await import('./emulator/verbs.js')).emulatorVerbs,
  },
  { name: 'demo', group: 'emulator', description: demoVerb.spec.description, action: demoVerb },
  {
    name: 'config',
    group: 'other',
    description: 'profiles: base URL, credentials and pinned keys',
    verbs: async () => (await import('./config/verbs.js')).configVerbs,
  },
  {
    name: 'keys',
    group: 'other',
    description: 'P-256 keys, API-key stamps and HPKE bundles',
    verbs: async () => (await import('./keys/verbs.js')).keysVerbs,
  },
  { name: 'completion', group: 'other', description: completionVerb.spec.description, action: completionVerb },
  { name: 'version', group: 'other', description: versionVerb.spec.description, action: versionVerb },
];

/** The noun a word names, itself or by an alias (`tx` → transactions); undefined for any other word. */
export function nounNamed(word: string | undefined): Noun | undefined {
  return NOUNS.find((noun) => noun.name === word || (word !== undefined && noun.aliases?.includes(word)));
}
