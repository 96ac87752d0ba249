/** `svc api <method> <path>`: any endpoint, with the signed retry done for you (a noun that is itself the command). */
import { arg, defineVerb, flag, verb } from '../verb.js';

export const api = defineVerb({
  name: 'api',
  description: 'call any endpoint; a 202 signing challenge is signed with the active session key and retried',
  args: {
    method: arg.required('<method>', 'GET, POST, PUT, PATCH, DELETE, HEAD or OPTIONS'),
    path: arg.required('<path>', 'path under the versioned base URL, like /customers or /auth/sessions/Session:<uuid>'),
  },
  flags: {
    rawField: flag.repeatable(
      '-f, --raw-field <key=value>',
      'a string field of the JSON body (repeatable; a.b= nests, a[]= appends)',
    ),
    field: flag.repeatable(
      '-F, --field <key=value>',
      'a typed field: true, false, null, numbers, @file or @- (repeatable)',
    ),
    input: flag.file('--input <file|->', 'the raw request body from a file, or - for stdin'),
    header: flag.repeatable('-H, --header <name:value>', 'an extra request header (repeatable)'),
    query: flag.repeatable('--query <key=value>', 'a query parameter (repeatable)'),
    paginate: flag.boolean('--paginate', 'follow nextCursor through every page and print one merged array'),
    jsonLines: flag.boolean('--json-lines', 'with --paginate: print one item per line as pages arrive'),
    sign: flag.negatable('--no-sign', 'return a 202 challenge as it is instead of signing it'),
    session: flag.value('--session <id>', 'Session:<uuid> whose key signs (default: the active session)', 'sessions'),
    showPayload: flag.boolean('--show-payload', 'print what is signed and ask before signing (--yes in scripts)'),
    idempotencyKey: flag.value(
      '--idempotency-key <key|auto>',
      'send Idempotency-Key; "auto" makes a fresh UUID (printed to stderr)',
    ),
    include: flag.boolean('-i, --include', 'print the status line and response headers to stderr'),
  },
  help: `
The body is JSON built from -f/-F fields, or the exact bytes of --input (not both).
With GET, fields become query parameters. The answer's body goes to stdout (JSON
indented, on one line with --json); errors exit as every other command (1, 2, 4).

Examples:
  $ svc api GET /customers --query limit=5
  $ svc api POST /customers -f customerType=INDIVIDUAL -f fullName="Ada Lovelace" \\
      -f address.line1="1 High St" -f address.city=London -f address.postalCode="SW1A 1AA" -f address.country=GB
  $ svc api PATCH /cards/Card:<uuid> -F 'fundingSources[]=InternalAccount:<uuid>'
  $ svc api DELETE /auth/sessions/Session:<uuid>            # 202 challenge signed for you
  $ svc --yes api POST /internal-accounts/InternalAccount:<uuid>/export -f clientPublicKey=04… --show-payload
  $ svc api GET /customers/internal-accounts --paginate --json-lines`,
});

export const apiVerb = verb(api, () => import('./run.js'));
