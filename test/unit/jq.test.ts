/** The --jq subset: string interpolation, and every expression either compiles or is a usage error naming --jq. */
import { describe, expect, it } from 'vitest';
import { compileJq } from '../../commands/jq/compile.js';
import { SvcError, UsageError } from '../../src/errors.js';

const run = (expr: string, input: unknown) => [...compileJq(expr)(input)];

describe('--jq', () => {
  it('interpolates like jq: strings raw, other values as JSON, one string per combination, strings nested', () => {
    const doc = { id: 'Customer:1', n: 2, tags: ['a', 'b'], o: { k: null } };
    expect(run('"\\(.id) has \\(.n)"', doc)).toEqual(['Customer:1 has 2']);
    expect(run('"\\(.o) \\(.o.k)"', doc)).toEqual(['{"k":null} null']);
    expect(run('"t=\\(.tags[])"', doc)).toEqual(['t=a', 't=b']);
    expect(run('"\\(.tags | "\\(length) (\\(.[0]))")!"', doc)).toEqual(['2 (a)!']);
    expect(run('"tab\\there \\"q\\" \\u00e9"', doc)).toEqual(['tab\there "q" é']);
  });

  it('refuses what it does not support as a usage error naming --jq and listing the subset', () => {
    for (const expr of ['"\\(.id', '"abc', '"\\q"', '"\\(.a | foo)"', '.a |', '.a as $x | $x', 'test("a")']) {
      let thrown: unknown;
      try {
        compileJq(expr);
      } catch (error) {
        thrown = error;
      }
      expect(thrown, expr).toBeInstanceOf(UsageError);
      expect((thrown as UsageError).input).toBe('--jq');
      expect((thrown as UsageError).hint).toContain('"\\(.a)" strings');
    }
  });

  it('never fails with anything but its own errors, whatever the expression', () => {
    const alphabet = ['.', 'a', '"', '\\', '(', ')', '[', ']', '|', ',', '?', '=', '1', ' ', 'length', 'select'];
    let seed = 42;
    const next = () => (seed = (seed * 1103515245 + 12345) % 2 ** 31);
    for (let i = 0; i < 5000; i++) {
      const expr = Array.from({ length: 1 + (next() % 10) }, () => alphabet[next() % alphabet.length]).join('');
      try {
        run(expr, { a: [1, { a: 'x' }] });
      } catch (error) {
        expect(error, expr).toBeInstanceOf(SvcError);
      }
    }
  });

  it('a path that does not fit the output is a failure (exit 1), not a usage error', () => {
    let thrown: unknown;
    try {
      run('.n.x', { n: 1 });
    } catch (error) {
      thrown = error;
    }
    expect(thrown).toBeInstanceOf(SvcError);
    expect(thrown).not.toBeInstanceOf(UsageError);
  });
});
