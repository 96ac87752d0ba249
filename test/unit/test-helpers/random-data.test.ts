/**
 * test/helpers/random-data.ts: random names, account numbers, amounts and tokens never hit a
 * sandbox magic value. Each draw below is the shape the generator draws from; drawn plainly, the
 * same number of values does hit magic (checked too), so a generator that stopped filtering fails.
 */
import { readFileSync, readdirSync } from 'node:fs';
import { join, relative } from 'node:path';
import { describe, expect, it } from 'vitest';
import * as service from '../../../src/service/index.js';
import { suffixRow, type SuffixTable } from '../../../src/service/index.js';
import {
  MAGIC_SUFFIX_TABLES,
  isMagic,
  plainDraw,
  randomAccountNumber,
  randomAmount,
  randomDigits,
  randomEmail,
  randomName,
  randomToken,
} from '../../helpers/random-data.js';
import { REPO_ROOT } from '../../helpers/spawn-svc.js';

const DRAWS = 5000;

/** Every suffix table src/service exports, found by shape so a new one is not missed. */
const exportedTables = (Object.values(service) as unknown[]).filter(
  (value): value is SuffixTable<unknown> =>
    typeof value === 'object' && value !== null && 'rows' in value && 'otherwise' in value && 'length' in value,
);

/** Asserts no table's magic row (nor the emulator's rejected-cardholder 004) matches any of the values. */
function expectClear(values: string[]): void {
  const magic = values.filter(
    (value) =>
      isMagic(value) ||
      value.endsWith('004') ||
      exportedTables.some((table) => suffixRow(table, value) !== table.otherwise),
  );
  expect(magic).toEqual([]);
}

const draws = <T>(draw: () => T): T[] => Array.from({ length: DRAWS }, draw);

describe('random test data', () => {
  it('knows every magic suffix table src/service exports', () => {
    expect(exportedTables.length).toBeGreaterThanOrEqual(7);
    for (const table of exportedTables) expect(MAGIC_SUFFIX_TABLES, table.name).toContain(table);
  });

  it('names, digits, account numbers, tokens, emails and amounts are never magic', () => {
    expectClear(draws(() => randomName()));
    expectClear(draws(() => randomName('Card Holder')));
    expectClear(draws(() => randomDigits(6)));
    expectClear(draws(() => randomAccountNumber()));
    expectClear(draws(() => randomToken(6)));
    expectClear(draws(() => randomEmail()));
    expectClear(draws(() => randomEmail().split('@')[0]!));
    const amounts = draws(() => randomAmount(1, 10_000));
    expectClear(amounts.map(String));
    for (const amount of amounts) expect(Number.isInteger(amount) && amount >= 1 && amount <= 10_000).toBe(true);
  });

  it('drawn plainly from the same shapes, as many values do hit magic (so the test above can fail)', () => {
    const magic = (values: string[]) => values.filter(isMagic).length;
    expect(magic(draws(() => `Test Person ${plainDraw('0123456789', 4)}`))).toBeGreaterThan(0);
    expect(magic(draws(() => plainDraw('0123456789', 6)))).toBeGreaterThan(0);
    expect(magic(draws(() => String(1 + Math.floor(Math.random() * 10_000))))).toBeGreaterThan(0);
    // A rejected cardholder, a failing account, a reserved beneficiary suffix, the fixed codes, a UMA scenario.
    for (const value of ['Holder 1004', '123456002', 'ada105@wallet.example.com', '000000', '123456'])
      expect(isMagic(value), value).toBe(true);
    expect(isMagic('$pending.long.usd@sandbox.example')).toBe(true);
    expect(isMagic('Ada Lovelace')).toBe(false);
  });

  it('is what tests draw strings with: none draws them from Math.random or a slice of a UUID', () => {
    const offenders: string[] = [];
    const walk = (dir: string): void => {
      for (const entry of readdirSync(dir, { withFileTypes: true })) {
        const path = join(dir, entry.name);
        if (entry.isDirectory()) walk(path);
        else if (/\.(ts|mjs)$/.test(entry.name) && !path.includes(`${join('test', 'bench')}`)) {
          const text = readFileSync(path, 'utf8');
          if (/Math\.random\(\)\.toString|\$\{Math\.random\(\)\}|randomUUID\(\)\.slice/.test(text))
            offenders.push(relative(REPO_ROOT, path));
        }
      }
    };
    walk(join(REPO_ROOT, 'test'));
    expect(offenders).toEqual([]);
  });
});
