/**
 * The request an operation of the table makes from the options given, checked before anything is
 * sent: required arguments and flags, each value by its type (integers, enums, dates, currency
 * codes, id prefixes, JSON), and the rules across flags. Every refusal is a UsageError naming the
 * flag (exit 2); what only the service can judge (an id that does not exist) is left to it.
 */
import { UsageError } from '../../src/errors.js';
import { isCalendarDate } from '../../src/date-time.js';
import { parseChoice } from '../../src/choice.js';
import { optionKey, type OpArg, type OpFlag, type Operation, type Rule } from './operation.js';
import { withArticle } from '../../src/words.js';
import { longFlag } from '../verb.js';

export interface ResourceRequest {
  method: string;
  /** Path under the versioned base URL, with its query. */
  path: string;
  /** The JSON body, serialized once (a signed retry must send the same bytes). */
  body?: string;
  headers: Record<string, string>;
}

type Options = Record<string, unknown>;

/** The option value of a flag or of its alias; undefined when neither was given. */
function given(opts: Options, f: OpFlag): unknown {
  const value = opts[optionKey(f.syntax)];
  const alias = f.alias !== undefined ? opts[optionKey(f.alias)] : undefined;
  const present = (v: unknown) => v !== undefined && v !== false && !(Array.isArray(v) && v.length === 0);
  return present(value) ? value : present(alias) ? alias : undefined;
}

function checkId(kind: string | readonly string[] | undefined, value: string, field: string): void {
  if (kind === undefined) return;
  const kinds = typeof kind === 'string' ? [kind] : kind;
  if (!kinds.some((k) => value.startsWith(`${k}:`) && value.length > k.length + 1)) {
    const like = kinds.map((k) => `${k}:<uuid>`).join(' or ');
    throw new UsageError(
      `${field} must be ${withArticle(kinds.join(' or '))} identifier like ${like}; got "${value}".`,
      {
        input: field,
      },
    );
  }
}

/** The value as the enum spells it (the one rule of src/choice.ts), or the value when there is no enum. */
function checkEnum(f: OpFlag, value: string, field: string): string {
  return f.enum ? parseChoice(value, f.enum, field) : value;
}

/** The JSON value a flag sends, from the text (or texts) given. */
function parseValue(f: OpFlag, raw: unknown): unknown {
  const field = longFlag(f.syntax);
  const text = String(raw);
  switch (f.type ?? 'text') {
    case 'flag':
      return f.value === undefined ? true : f.value;
    case 'int': {
      // A negative number is a whole number too: the range is what it misses.
      if (/^-\d+$/.test(text.trim()))
        throw new UsageError(`${field} must be at least ${f.min ?? 0}; got ${text}.`, { input: field });
      if (!/^\d+$/.test(text.trim()))
        throw new UsageError(
          `${field} must be a whole number (in the smallest unit, e.g. 1000 for 10.00); got "${text}".`,
          {
            input: field,
          },
        );
      const n = Number(text.trim());
      if (!Number.isSafeInteger(n)) throw new UsageError(`${field} is too large; got ${text}.`, { input: field });
      if (f.min !== undefined && n < f.min)
        throw new UsageError(`${field} must be at least ${f.min}; got ${text}.`, { input: field });
      if (f.max !== undefined && n > f.max)
        throw new UsageError(`${field} must be at most ${f.max}; got ${text}.`, { input: field });
      return n;
    }
    case 'truefalse':
      if (text !== 'true' && text !== 'false')
        throw new UsageError(`${field} must be true or false; got "${text}".`, { input: field });
      return text === 'true';
    case 'list':
    case 'many': {
      const items = (Array.isArray(raw) ? raw.map(String) : text.split(',')).map((s) => s.trim()).filter(Boolean);
      if (items.length === 0)
        throw new UsageError(`${field} must list at least one value; got "${text}".`, { input: field });
      return items.map((item) => {
        checkId(f.id, item, field);
        return checkEnum(f, item, field);
      });
    }
    case 'json':
      try {
        return JSON.parse(text);
      } catch {
        throw new UsageError(`${field} must be JSON; got ${text}.`, {
          input: field,
          hint: 'Quote it for the shell: \'{"a":1}\'.',
        });
      }
    case 'date':
      if (!isCalendarDate(text))
        throw new UsageError(`${field} must be a date YYYY-MM-DD; got "${text}".`, { input: field });
      return text;
    case 'currency':
      if (!/^[A-Z0-9]{2,10}$/.test(text))
        throw new UsageError(`${field} must be an upper-case currency code such as USD or USDC; got "${text}".`, {
          input: field,
        });
      return text;
    default:
      checkId(f.id, text, field);
      return checkEnum(f, text, field);
  }
}

function setPath(target: Record<string, unknown>, path: string, value: unknown, overwrite = true): void {
  const keys = path.split('.');
  let node = target;
  for (const key of keys.slice(0, -1)) node = (node[key] ??= {}) as Record<string, unknown>;
  const last = keys[keys.length - 1]!;
  if (overwrite || !(last in node)) node[last] = value;
}

/** A rule's names as flags: `email` → `--email` (the spec's flags are found by option key). */
function ruleFlags(op: Operation, names: string | string[]): OpFlag[] {
  return [names].flat().map((name) => {
    const want = name.startsWith('-') ? longFlag(name) : name;
    const f = op.flags?.find((x) => longFlag(x.syntax) === want || optionKey(x.syntax) === want);
    if (!f) throw new Error(`operation ${op.noun} ${op.verb ?? ''}: its rule names ${name}, which it does not have`);
    return f;
  });
}

function checkRule(op: Operation, rule: Rule, opts: Options): void {
  const has = (f: OpFlag) => given(opts, f) !== undefined;
  const names = (fs: OpFlag[]) => fs.map((f) => longFlag(f.syntax));
  if ('given' in rule) {
    const triggers = ruleFlags(op, rule.given).filter(
      (f) => has(f) && (rule.is === undefined || new RegExp(rule.is).test(String(given(opts, f)))),
    );
    if (triggers.length === 0) return;
    const cause =
      rule.is === undefined
        ? longFlag(triggers[0]!.syntax)
        : `${longFlag(triggers[0]!.syntax)} ${String(given(opts, triggers[0]!))}`;
    const missing = names(ruleFlags(op, rule.needs ?? []).filter((f) => !has(f)));
    if (missing.length > 0)
      throw new UsageError(`${cause} needs ${missing.join(' and ')} as well.`, { input: missing[0] });
    const extra = names(ruleFlags(op, rule.forbids ?? []).filter(has));
    if (extra.length > 0) throw new UsageError(`${cause} cannot go with ${extra.join(' or ')}.`, { input: extra[0] });
    return;
  }
  const list = 'atLeastOne' in rule ? rule.atLeastOne : 'atMostOne' in rule ? rule.atMostOne : rule.exactlyOne;
  const flags = ruleFlags(op, list);
  const present = names(flags.filter(has));
  if (present.length === 0 && !('atMostOne' in rule))
    throw new UsageError(`Give ${'exactlyOne' in rule ? 'one' : 'at least one'} of ${names(flags).join(', ')}.`, {
      input: names(flags)[0],
    });
  if (present.length > 1 && !('atLeastOne' in rule))
    throw new UsageError(`${present.join(' and ')} cannot go together: give one.`, { input: present[1] });
}

function argValue(a: OpArg, opts: Options): string {
  const name = a.syntax.slice(1, -1);
  const value = (opts[name] ?? (a.orFlag !== undefined ? opts[a.orFlag] : undefined)) as string | undefined;
  if (value === undefined || value === '') {
    const or = a.orFlag !== undefined ? ` (or --${a.orFlag.replace(/[A-Z]/g, (c) => `-${c.toLowerCase()}`)})` : '';
    throw new UsageError(`<${name}>${or} is required: ${a.help}.`, { input: `<${name}>` });
  }
  checkId(a.id, value, `<${name}>`);
  return value;
}

/** The request `op` makes with `opts`, or the UsageError that stops it before anything is sent. */
export function buildRequest(op: Operation, opts: Options): ResourceRequest {
  let path = op.altPath && opts[op.altPath.flag] === true ? op.altPath.path : op.path;
  for (const a of op.args ?? [])
    path = path.replace(`{${a.syntax.slice(1, -1)}}`, encodeURIComponent(argValue(a, opts)));

  const flags = op.flags ?? [];
  for (const f of flags) {
    if (f.required && given(opts, f) === undefined)
      throw new UsageError(`${longFlag(f.syntax)} is required: ${f.help}.`, { input: longFlag(f.syntax) });
  }
  const body: Record<string, unknown> = {};
  const query = new URLSearchParams();
  for (const f of flags) {
    const raw = given(opts, f);
    if (raw === undefined) continue;
    const value = parseValue(f, raw);
    if (f.when !== undefined && opts[f.when] === undefined) continue;
    if (f.query !== undefined) {
      for (const v of Array.isArray(value) ? value : [value]) query.append(f.query, String(v));
    }
    const target = f.bodyBy ? f.bodyBy.paths[String(opts[f.bodyBy.flag])] : f.body;
    if (target !== undefined) setPath(body, target, value);
  }
  // Discriminators after the fields, so the first flag given decides and no field is overwritten.
  for (const f of flags) {
    if (f.sets && given(opts, f) !== undefined)
      for (const [path, value] of Object.entries(f.sets)) setPath(body, path, value, false);
  }
  for (const rule of op.rules ?? []) checkRule(op, rule, opts);

  const headers: Record<string, string> = {};
  const signature = opts.walletSignature as string | undefined;
  const requestId = opts.requestId as string | undefined;
  if ((signature === undefined) !== (requestId === undefined)) {
    throw new UsageError('--wallet-signature and --request-id go together: the stamp answers that challenge.', {
      input: signature === undefined ? '--wallet-signature' : '--request-id',
    });
  }
  if (signature !== undefined && requestId !== undefined) {
    headers['Service-Wallet-Signature'] = signature;
    headers['Request-Id'] = requestId;
  }
  const hasBody = Object.keys(body).length > 0 || (op.emptyBody === true && op.method !== 'GET');
  const search = query.toString();
  return {
    method: op.method,
    path: search ? `${path}?${search}` : path,
    ...(hasBody ? { body: JSON.stringify(body) } : {}),
    headers,
  };
}
