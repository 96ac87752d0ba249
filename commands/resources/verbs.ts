/**
 * The resource commands (`svc customers create`, `svc auth sessions list`, `svc exchange-rates`…)
 * as verbs: one per operation of the table (commands/resources/table.ts), all run by one module
 * (./run.ts). Part of the command root, so it holds the nouns' names and the conversion only; the
 * table itself loads when one of its nouns is invoked (main.ts), never for `svc --help`.
 */
import type { Flag, Verb, VerbModule, VerbSpec } from '../verb.js';
import { commandWords, OPERATION, optionKey, type OpFlag, type Operation, type ResourceNoun } from './operation.js';

/** The nouns only the table has, in help order (sandbox, cards and auth also have verbs of their own). */
export const RESOURCE_NOUNS: ResourceNoun[] = [
  { name: 'customers', description: 'list, create, update and verify customers', aliases: ['cust'] },
  {
    name: 'accounts',
    description: 'internal accounts (balances) and external accounts (banks, wallets)',
    aliases: ['acct'],
  },
  { name: 'internal-accounts', description: 'update or export an embedded wallet (signed)' },
  { name: 'quotes', description: 'quote and execute transfers across currencies' },
  { name: 'transfers', description: 'same-currency transfers in and out' },
  { name: 'transactions', description: 'list, read, approve and reject transactions', aliases: ['tx'] },
  { name: 'receiver', description: 'look up a UMA address or external account before paying it' },
  { name: 'exchange-rates', description: 'exchange rates, with fees, from a source currency' },
  { name: 'discoveries', description: 'institutions that can receive payments' },
  { name: 'uma-providers', description: 'counterparty (UMA) providers' },
  { name: 'crypto', description: 'estimate a crypto withdrawal fee' },
  { name: 'tokens', description: 'API tokens' },
  {
    name: 'platform-config',
    description: "the platform's configuration (the official CLI's `config`; svc config holds profiles)",
  },
];

/** The nouns whose verbs include the table's: these load it when invoked. */
export const TABLE_NOUNS = new Set([...RESOURCE_NOUNS.map((n) => n.name), 'auth', 'cards', 'sandbox']);

/** The middle words of three-word commands. */
export const GROUPS: Record<string, string> = {
  credentials: "an internal account's login credentials",
  'delegated-keys': 'delegated signing keys of cards',
  sessions: "an internal account's auth sessions",
  internal: 'internal accounts: balances held by the service',
  external: 'external accounts: bank accounts and wallets',
};

function flagOf(f: OpFlag): Flag<unknown> {
  const kind = f.type === 'flag' ? 'boolean' : f.type === 'many' ? 'repeatable' : 'value';
  const allowed = f.enum ? ` (${f.enum.join(', ')})` : '';
  const required = f.required ? ' (required)' : '';
  return {
    syntax: f.syntax,
    description: `${f.help}${allowed}${required}`,
    kind,
    ...(f.default !== undefined ? { default: f.default } : {}),
    // The enum is the flag's choices: checked in any case before the runner, offered by completion.
    ...(f.enum && { choices: f.enum, ...((f.type === 'list' || f.type === 'many') && { list: true as const }) }),
  };
}

const COMMON = {
  dryRun: {
    syntax: '--dry-run',
    description: 'print the request and the equivalent curl command (with the signing steps) instead of sending',
    kind: 'boolean',
  },
  paginate: {
    syntax: '--paginate',
    description: 'follow nextCursor through every page and print one merged array',
    kind: 'boolean',
  },
  walletSignature: {
    syntax: '--wallet-signature <stamp>',
    description: 'a Service-Wallet-Signature made elsewhere, sent as is (svc signs with the active session otherwise)',
    kind: 'value',
  },
  requestId: {
    syntax: '--request-id <id>',
    description: "the challenge's requestId, with --wallet-signature",
    kind: 'value',
  },
  yes: { syntax: '-y, --yes', description: 'do it without asking (required in scripts)', kind: 'boolean' },
} satisfies Record<string, Flag<unknown>>;

function helpOf(op: Operation): string {
  const words = commandWords(op);
  const lines = ['', 'Examples:', ...op.examples.map((e) => `  $ svc ${words}${e ? ` ${e}` : ''}`)];
  if (op.signedBy) {
    lines.push(
      '',
      `The service answers 202 with a challenge to be signed by ${op.signedBy}, not by a session:`,
      'without --wallet-signature svc prints the challenge and stops (exit 4). Stamp its payloadToSign',
      '(svc keys stamp --private-key-file <file> --payload <payloadToSign>) and run the command again',
      'with --wallet-signature <stamp> --request-id <requestId>.',
    );
  } else if (op.signed) {
    lines.push(
      '',
      'When the service answers 202 with a challenge, svc signs its payloadToSign with the active',
      "session's key and sends the request again (svc login otp … makes a session); a stamp made",
      'elsewhere goes in --wallet-signature with --request-id. --dry-run shows each step.',
    );
  }
  if (op.seeAlso) lines.push('', `See also: ${op.seeAlso}.`);
  return lines.join('\n');
}

/** The spec of one operation: its arguments and flags, svc's common ones, and help with examples. */
function specOf(op: Operation): VerbSpec {
  const flags: Record<string, Flag<unknown>> = {};
  for (const f of op.flags ?? []) {
    flags[optionKey(f.syntax)] = flagOf(f);
    if (f.alias)
      flags[optionKey(f.alias)] = { ...flagOf(f), syntax: f.alias, description: `alias of ${f.syntax.split(' ')[0]}` };
  }
  flags.dryRun = COMMON.dryRun;
  if (op.list) flags.paginate = COMMON.paginate;
  if (op.signed) Object.assign(flags, { walletSignature: COMMON.walletSignature, requestId: COMMON.requestId });
  if (op.irreversible) flags.yes = COMMON.yes;
  const args = Object.fromEntries(
    (op.args ?? []).map((a) => [a.syntax.slice(1, -1), { syntax: a.syntax, description: a.help }]),
  );
  return { name: op.verb ?? op.noun, description: op.summary, args, flags, help: helpOf(op) };
}

/** A verb of the table, with the group it sits under (`credentials` in `svc auth credentials list`). */
export interface TableVerb extends Verb<never> {
  group?: string;
}

/**
 * The verbs of `operations`. Each loads the one runner, told which operation it runs: the option
 * is added here, as the runner's module (or, built, its bundle's `execute`) is shared by all.
 */
export function tableVerbs(operations: readonly Operation[]): TableVerb[] {
  return operations.map((op) => {
    const key = commandWords(op);
    const load = async () => {
      const loaded = (await import('./run.js')) as unknown as Record<string, (...a: unknown[]) => Promise<unknown>>;
      const tell = (options: unknown) => ({ ...(options as object), [OPERATION]: key });
      // The bundle's verb entry is execute(spec, options, globals, signal) (.ci/build.mjs): options come second.
      if (loaded.execute)
        return {
          execute: (spec: unknown, o: unknown, ...rest: unknown[]) => loaded.execute!(spec, tell(o), ...rest),
        };
      return { run: (o: unknown, deps: unknown) => loaded.run!(tell(o), deps) };
    };
    return {
      spec: specOf(op),
      load: load as () => Promise<VerbModule<never>>,
      ...(op.group ? { group: op.group } : {}),
    };
  });
}
