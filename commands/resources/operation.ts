/**
 * The shape of one resource operation (`svc customers create`, `svc auth sessions list`…): the
 * official CLI's noun, verb, positional arguments and flags, and the request they make. Each
 * operation is one entry of a table (commands/resources/table/), read by the command root for the
 * flags (commands/resources/verbs.ts) and by the one runner that checks and sends it
 * (commands/resources/run.ts). Pure data: no imports, so the root loads nothing else with it.
 */

/** How a flag's text becomes a value (and what it must look like first). */
type ValueType =
  /** Text as given. */
  | 'text'
  /** A whole number (amounts in the smallest currency unit); `min`/`max` bound it. */
  | 'int'
  /** Present or absent: sends `value` (default true) when present. */
  | 'flag'
  /** `true` or `false` → a JSON boolean. */
  | 'truefalse'
  /** Comma-separated → an array of strings. */
  | 'list'
  /** Repeatable flag → an array of strings (a repeated query parameter). */
  | 'many'
  /** A JSON document. */
  | 'json'
  /** YYYY-MM-DD. */
  | 'date'
  /** An upper-case currency code (USD, USDC). */
  | 'currency';

export interface OpFlag {
  /** Commander syntax, the official CLI's spelling: `--full-name <name>`, `-l, --limit <number>`, `--platform`. */
  syntax: string;
  help: string;
  type?: ValueType;
  /** Where the value goes: a dotted path in the JSON body, or a query parameter. */
  body?: string;
  query?: string;
  /** The body path chosen by another flag's value (`--beneficiary-name` is fullName or legalName by type). */
  bodyBy?: { flag: string; paths: Record<string, string> };
  /** Other body paths set when this flag is given (a discriminator: `source.sourceType`); the first flag given wins. */
  sets?: Record<string, string>;
  /** Sent only alongside this flag (the official CLI ignores `--dest-currency` for an account destination). */
  when?: string;
  /** The value sent for a `flag` type (default true). */
  value?: unknown;
  required?: boolean;
  /** Sent when the flag is absent (shown in help). */
  default?: string;
  enum?: readonly string[];
  /** An identifier prefix the value must carry (`Customer` → `Customer:…`); the service checks the rest. */
  id?: string;
  min?: number;
  max?: number;
  /** Also accepted under this spelling (svc's own name, or the README's), documented as its alias. */
  alias?: string;
}

export interface OpArg {
  /** `<customerId>` (required) or `[customerId]`; the name fills `{customerId}` in the path. */
  syntax: string;
  help: string;
  /** An identifier prefix the value must carry, as for a flag (one of several: a transaction or a card transaction). */
  id?: string | readonly string[];
  /** A flag that may carry the value instead (the official README's `kyc-link --customer-id`). */
  orFlag?: string;
}

/**
 * Checks across flags. Names are flags (`--email`) or option names (`email`); the message names the flags.
 */
export type Rule =
  | { atLeastOne: string[] }
  | { atMostOne: string[] }
  | { exactlyOne: string[] }
  /**
   * When any flag of `given` is given (and its value matches the pattern `is`, when set), each of
   * `needs` must be given too, and none of `forbids`.
   */
  | { given: string | string[]; is?: string; needs?: string[]; forbids?: string[] };

export interface Operation {
  noun: string;
  /** The middle word of three-word commands: `credentials` in `svc auth credentials list`. */
  group?: string;
  /** Absent for a noun that is itself the command (`svc exchange-rates`). */
  verb?: string;
  summary: string;
  method: 'GET' | 'POST' | 'PATCH' | 'DELETE';
  /** `{name}` is filled from the positional argument of that name. */
  path: string;
  /** The path used instead when this boolean flag is given (`accounts internal list --platform`). */
  altPath?: { flag: string; path: string };
  args?: OpArg[];
  flags?: OpFlag[];
  rules?: Rule[];
  /** The service answers 202 with a challenge that the active session's key signs. */
  signed?: boolean;
  /**
   * The key that signs the 202 when it is not a session's (credential verify: the TEK sealed in the
   * OTP bundle), as the messages name it: svc cannot sign, so without --wallet-signature it stops at
   * the challenge, prints it and says how to answer it.
   */
  signedBy?: string;
  /** A list answering `{data, hasMore, nextCursor}`: gets --paginate. */
  list?: boolean;
  /** Cannot be undone: asks on a terminal, wants --yes elsewhere. */
  irreversible?: boolean;
  /** The body is sent even when no flag fills it (`{}`), as the service requires one. */
  emptyBody?: boolean;
  /** Command lines for --help, after `svc <noun> [group] [verb]`; the first is the one README and tests run. */
  examples: string[];
  /** svc's older command for the same call, named in help. */
  seeAlso?: string;
}

/** `auth credentials list`, `exchange-rates`: the words after `svc`. */
export function commandWords(op: Pick<Operation, 'noun' | 'group' | 'verb'>): string {
  return [op.noun, op.group, op.verb].filter(Boolean).join(' ');
}

/** The option key carrying which operation runs (one runner module serves them all). */
export const OPERATION = 'operation';

/** A resource noun: its help line, and whether it is itself the command. */
export interface ResourceNoun {
  name: string;
  description: string;
  /** Other words for it (the official CLI's `cust`, `acct`, `tx`). */
  aliases?: string[];
}

/** The option name of a flag, as commander makes it: `-l, --limit <n>` → limit, `--address-line1` → addressLine1. */
export function optionKey(syntax: string): string {
  const long = /--([\w-]+)/.exec(syntax)![1]!;
  return long.replace(/-(\w)/g, (_, c: string) => c.toUpperCase());
}
