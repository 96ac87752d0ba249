/**
 * --jq against the real jq (/usr/bin/jq; .ci/run installs Debian's package): every expression below
 * prints the same lines as `jq -rc` on the same documents, and fails where jq fails (after the same
 * lines). Expressions jq accepts that --jq does not are usage errors naming what is unsupported.
 */
import { spawnSync } from 'node:child_process';
import { existsSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { compileJq } from '../../commands/jq/compile.js';
import { SvcError, UsageError } from '../../src/errors.js';

const JQ = '/usr/bin/jq';

const CUSTOMERS = {
  data: [
    { id: 'Customer:1', kycStatus: 'APPROVED', type: 'INDIVIDUAL', tags: ['a', 'b'], n: 3, umaAddress: '$ann@x.test' },
    { id: 'Customer:2', kycStatus: 'PENDING', type: 'BUSINESS', n: 1, business: { name: 'Acme "Co"', taxId: null } },
    { id: 'Customer:3', kycStatus: 'APPROVED', type: 'INDIVIDUAL', tags: [], n: 2.5, note: 'tab\there, ünï' },
  ],
  hasMore: false,
  nextCursor: null,
  totalCount: 3,
};
const MIXED = { a: 1, b: 'two', c: [3, 'x', null, true, { d: 4 }], e: { f: { g: [5, 6] } }, h: null, i: false, z: -7 };

type Outcome = { lines: string[]; failed: boolean };

function ours(expr: string, doc: unknown): Outcome {
  const lines: string[] = [];
  try {
    for (const line of compileJq(expr)(doc)) lines.push(line);
    return { lines, failed: false };
  } catch (error) {
    expect(error, expr).toBeInstanceOf(SvcError);
    expect(error, `${expr}: jq accepts it, so it must not be refused as input`).not.toBeInstanceOf(UsageError);
    return { lines, failed: true };
  }
}

function real(expr: string, doc: unknown): Outcome {
  const r = spawnSync(JQ, ['-rc', expr], { input: JSON.stringify(doc), encoding: 'utf8' });
  if (r.status === 3) throw new Error(`jq itself refuses ${expr}: ${r.stderr}`);
  return { lines: r.stdout.split('\n').slice(0, -1), failed: r.status !== 0 };
}

const ON_CUSTOMERS = [
  '.',
  '.data[0].id',
  '.data[].id',
  '.data[-1].id',
  '.data[5]',
  '.["data"][1]["kycStatus"]',
  '."totalCount"',
  '.data[0]."umaAddress"',
  '.data | length',
  '.data[] | {id, kycStatus}',
  '.data[] | {id, status: .kycStatus}',
  '[.data[].id]',
  '[.data[] | .n]',
  '.data | map(.id)',
  '.data | map(.n * 2)',
  '.data | map(select(.kycStatus == "APPROVED") | .id)',
  '.data[] | select(.kycStatus == "APPROVED") | .id',
  '.data[] | select(.n > 1) | .id',
  '.data[] | select(.tags) | .id',
  '.data[] | select(has("business")) | .business.name',
  '.data[1:3] | map(.id)',
  '.data[:1] | map(.id)',
  '.data[-2:] | map(.id)',
  '.data[0].id[0:8]',
  '.data[0] | keys',
  '.data[1] | keys_unsorted',
  '.data[0] | to_entries | map(.key)',
  '.data[0] | to_entries[] | "\\(.key)=\\(.value)"',
  '.data[0] | with_entries(select(.key == "id" or .key == "n"))',
  '.data[0] | to_entries | from_entries',
  '[.data[].id] | join(",")',
  '[.data[].n] | join(" ")',
  '.data[] | "\\(.id) is \\(.kycStatus)"',
  '.data[] | "\\(.id): \\(.tags // [] | length) tags"',
  '.nextCursor // "end"',
  '.data[].business.taxId // "none"',
  '.data[] | .business.name // .id',
  '.hasMore or (.totalCount > 2)',
  '.hasMore and true',
  '[..|numbers]',
  '[..|strings] | length',
  '[.. | .id? // empty]',
  '.data | sort_by(.n) | map(.id)',
  '.data | sort_by(.kycStatus, .id) | map(.id)',
  '.data | group_by(.kycStatus) | map({status: .[0].kycStatus, count: length})',
  '.data | unique_by(.type) | map(.type)',
  '.data | min_by(.n) | .id',
  '.data | max_by(.n) | .id',
  '[.data[].type] | unique',
  '.data | map(.n) | add',
  '.data | map(.n) | max',
  '.data | map(.n) | min',
  '.data | any(.kycStatus == "PENDING")',
  '.data | all(.kycStatus == "APPROVED")',
  '.data | first | .id',
  '.data | last | .id',
  'first(.data[] | select(.n < 3)) | .id',
  'limit(2; .data[]) | .id',
  '[.data[] | .tags[]?]',
  '.data[] | .tags | length?',
  '.data[] | [.id, .kycStatus] | @tsv',
  '.data[] | [.id, .n, .hasMore] | @csv',
  '.data[1].business | @json',
  '.data[2].note | @text',
  '.data[] | if .type == "BUSINESS" then .business.name elif .n > 2 then "big" else "small" end',
  '{count: .totalCount, ids: [.data[].id]}',
  '{(.data[0].id): .data[0].n}',
  '{"total": .totalCount, more: .hasMore}',
  '.data[] | {id} + {x: 1}',
  '.data | length > 2',
  '.data[0].id | ascii_downcase',
  '.data[0].id | ascii_upcase',
  '.data[0].id | split(":")',
  '.data[0].id | ltrimstr("Customer:") | tonumber',
  '.data[0].id | startswith("Customer")',
  '.data[0].id | endswith("2")',
  '.data[0].umaAddress | contains("ann")',
  '.data[0] | contains({tags: ["a"]})',
  '.data | map(.n | tostring)',
  '.data | map(.id | length)',
  '.data[] | .n | floor',
  '.data | reverse | map(.id)',
  '.data | map(.tags) | flatten',
  '.data[0] | has("tags")',
  '.data | has(3)',
  '.data | map(type)',
  '.totalCount | tojson',
  '"\\(.totalCount)" | fromjson + 1',
  '[range(3)]',
  '[range(1; 4)]',
  '.data[0].missing.deeper',
  '.data[0].id.x',
  '.data[].n.x',
  '.data[0].tags | .[] | .x?',
  '.data[0] | .id, .n',
  '(.data[0], .data[1]) | .id',
  '.totalCount + 1, .totalCount - 1, .totalCount * 2, .totalCount / 2, .totalCount % 2',
  '-.totalCount',
  '.data[0].tags + ["c"]',
  '.data[0].tags - ["a"]',
  '.data[0] * {tags: null}',
  '.data[].kycStatus | select(. != "PENDING")',
  '.data | map(select(.n >= 2 and .n < 3)) | length',
  '[.data[] | .n < 2]',
  '.data[1].business.name | @base64',
  '[.data[] | .id] | .[1:]',
  '"a,b" / ","',
  'empty',
  'not',
];

const ON_MIXED = [
  '..',
  '[..]',
  '[.. | scalars]',
  '[.. | objects | keys] ',
  '.c | sort',
  '.c | map(type)',
  '.c[] | strings',
  '.c | map(values)',
  '[.c[] | booleans, nulls]',
  '.c[4].d',
  '.e.f.g[1]',
  '.e | .. | numbers',
  '.c | length',
  '.b | length',
  '.z | length',
  '.h | length',
  '.i | length',
  '[.a, .b] | join("-")',
  '.c | join(",")',
  '.e | to_entries',
  'keys',
  'to_entries | map(.value | type)',
  '[.[] | type]',
  'map_values(type)',
  '.c | map(. == null)',
  '[.a < .b, .h < .i, .c < .e, [1,2] < [1,3], {a:1} < {a:2}, {a:2} < {b:1}]',
  '[1, "a", null, true, false, [0], {}] | sort',
  '.c[0:2], .b[1:], .b[-1:]',
  '.b * 2',
  '.a / 0',
  '.c - [null, true]',
  '.e * {f: {h: 1}}',
  '{} | .a.b.c',
  '.a + .b',
  '.h + 1',
  '.c | add',
  '[.a, .z] | add',
  '.e.f | has("g")',
  '[.c[] | tostring]',
  '.a | tostring + "!"',
  '.c[3] | not',
  'if .h then 1 else 2 end',
  'if .a then "yes" else "no" end, if .i then 1 elif .a then 2 else 3 end',
  '[.c[] | numbers] | add / length',
  '.missing[]?',
  '.a[]?',
  '.a[]',
  '{a, b, zz: .z}',
  '{a: (1, 2)} | .a',
  '[.c[] | select(type == "number")]',
  '"x\\(1,2)y\\("a","b")"',
  '.c | first, last',
  '[limit(3; .c[])]',
  '@csv',
  '.c | @csv',
  '[.b, .a, null, true] | @tsv',
  '.c[] | .d?',
  '.c | .[1:3]',
  '[.c[] | (. // "falsy")]',
  '(.h, .i, .a) // 9',
  '[.e.f.g[] | . * 10] | join(",")',
  '.e.f.g | map(. % 4)',
];

const UNSUPPORTED: [string, RegExp][] = [
  ['.a as $x | $x', /variables/],
  ['$ENV.HOME', /variables/],
  ['def f: 1; f', /def/],
  ['reduce .[] as $x (0; . + $x)', /reduce/],
  ['.a = 1', /assignment/],
  ['.a |= 1', /assignment/],
  ['try .a catch "x"', /try/],
  ['test("a")', /test\/1 is not supported/],
  ['input', /input\/0 is not supported/],
  ['@base64d', /@base64d\/0 is not supported/],
  ['@base64 "\\(.a)"', /format strings/],
];

describe('--jq matches the real jq', () => {
  it('has jq to compare with (.ci/run installs it)', () => {
    expect(existsSync(JQ), `${JQ} is missing: apt-get install -y jq`).toBe(true);
  });

  const cases = [...ON_CUSTOMERS.map((e) => [e, CUSTOMERS] as const), ...ON_MIXED.map((e) => [e, MIXED] as const)];
  it(`prints what jq prints, and fails where jq fails, on ${cases.length} expressions`, () => {
    expect(cases.length).toBeGreaterThanOrEqual(100);
    const differ: string[] = [];
    for (const [expr, doc] of cases) {
      let mine: Outcome;
      try {
        mine = ours(expr, doc);
      } catch (error) {
        differ.push(`${expr}: ${(error as Error).message}`);
        continue;
      }
      const theirs = real(expr, doc);
      if (JSON.stringify(mine) !== JSON.stringify(theirs))
        differ.push(`${expr}\n  ours: ${JSON.stringify(mine)}\n  jq:   ${JSON.stringify(theirs)}`);
    }
    expect(differ.join('\n')).toBe('');
  }, 120_000);

  it('refuses what is outside the subset before anything runs, naming it', () => {
    for (const [expr, names] of UNSUPPORTED) {
      let thrown: unknown;
      try {
        compileJq(expr);
      } catch (error) {
        thrown = error;
      }
      expect(thrown, expr).toBeInstanceOf(UsageError);
      expect((thrown as UsageError).message, expr).toMatch(names);
    }
  });
});
