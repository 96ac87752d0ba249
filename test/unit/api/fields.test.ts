/** `svc api` request parts: typed fields, nesting, arrays, paths, headers and query, and their usage errors. */
import { describe, expect, it } from 'vitest';
import { buildFields, flattenToQuery, type FieldArg } from '../../../src/api/fields.js';
import { idempotencyKey, normalizePath, parseHeaders, parseQuery, requireMethod } from '../../../src/api/request.js';
import { UsageError } from '../../../src/errors.js';
import { caught, rejected } from '../../helpers/caught.js';

const raw = (text: string): FieldArg => ({ kind: 'raw', text });
const typed = (text: string): FieldArg => ({ kind: 'typed', text });
const files: Record<string, string> = { 'note.txt': 'hello\n', 'token.jwt': 'a.b.c' };
const read = async (path: string) => {
  if (!(path in files)) throw new Error(`cannot read -F ${path} (ENOENT)`);
  return files[path]!;
};

describe('buildFields', () => {
  it('-f keeps strings, -F types true/false/null/numbers and reads @file without its final newline', async () => {
    const body = await buildFields(
      [
        raw('amount=100'),
        raw('flag=true'),
        typed('n=42'),
        typed('x=-1.5'),
        typed('t=true'),
        typed('f=false'),
        typed('z=null'),
        typed('big=12345678901234567890'),
        typed('s=hello'),
        typed('note=@note.txt'),
        typed('oidcToken=@token.jwt'),
      ],
      read,
    );
    expect(body).toEqual({
      amount: '100',
      flag: 'true',
      n: 42,
      x: -1.5,
      t: true,
      f: false,
      z: null,
      big: '12345678901234567890',
      s: 'hello',
      note: 'hello',
      oidcToken: 'a.b.c',
    });
  });

  it('nests dotted keys and appends [] keys in order', async () => {
    const body = await buildFields(
      [
        raw('address.line1=1 Main St'),
        raw('address.city=Paris'),
        typed('address.geo.lat=48.8'),
        raw('fundingSources[]=A'),
        raw('fundingSources[]=B'),
        raw('v==x=y'),
      ],
      read,
    );
    expect(body).toEqual({
      address: { line1: '1 Main St', city: 'Paris', geo: { lat: 48.8 } },
      fundingSources: ['A', 'B'],
      v: '=x=y',
    });
  });

  it('reports every bad field at once, naming the flags', async () => {
    const error = await rejected(
      buildFields(
        [raw('novalue'), typed('a=1'), typed('a.b=2'), raw('c=1'), raw('c=2'), typed('d=@missing'), raw('e..f=1')],
        read,
      ),
      UsageError,
    );
    expect(error.input).toBe('-f,-F');
    expect(error.message).toContain('-f "novalue" is not key=value');
    expect(error.message).toContain('-F "a" is already a value, so it cannot hold "b"');
    expect(error.message).toContain('-f "c" is given twice');
    expect(error.message).toContain('-F d: cannot read missing (ENOENT)');
    expect(error.message).toContain('empty or unusual segment');
  });

  it('a value where nested fields already are is refused', async () => {
    const error = await rejected(buildFields([typed('b.c=1'), typed('b=2')], read), UsageError);
    expect(error.message).toContain('"b" already holds nested fields');
  });

  it('flattens to query pairs for GET', () => {
    expect(flattenToQuery({ limit: 5, a: { b: 'x' }, ids: ['1', '2'] })).toEqual([
      ['limit', '5'],
      ['a.b', 'x'],
      ['ids', '1'],
      ['ids', '2'],
    ]);
  });
});

describe('request parts', () => {
  it('methods are upper-cased; anything else is a usage error naming the method', () => {
    expect(requireMethod('patch')).toBe('PATCH');
    expect(caught(() => requireMethod('FETCH'), UsageError).input).toBe('method');
  });

  it('paths: leading slash added, a pasted version segment dropped, query appended and encoded, full URLs refused', () => {
    expect(normalizePath('customers')).toBe('/customers');
    expect(normalizePath('/2025-10-13/customers?limit=2', [['cursor', 'a b&c']])).toBe(
      '/customers?limit=2&cursor=a%20b%26c',
    );
    expect(normalizePath('/auth/sessions', [['accountId', 'InternalAccount:x']])).toBe(
      '/auth/sessions?accountId=InternalAccount%3Ax',
    );
    expect(caught(() => normalizePath('https://evil.example/customers'), UsageError)).toMatchObject({
      input: 'path',
      reason: 'FULL_URL',
    });
  });

  it('headers and query pairs: every malformed one named', () => {
    expect(parseHeaders(['X-Trace: 1', 'Content-Type:application/json'])).toEqual({
      'X-Trace': '1',
      'Content-Type': 'application/json',
    });
    const error = caught(() => parseHeaders(['nocolon', 'bad name: x']), UsageError);
    expect(error.message).toContain('"nocolon", "bad name: x"');
    expect(parseQuery(['a=1', 'b=x=y'])).toEqual([
      ['a', '1'],
      ['b', 'x=y'],
    ]);
    expect(caught(() => parseQuery(['a', '=b']), UsageError)).toMatchObject({
      input: 'query',
      reason: 'NOT_KEY_VALUE',
    });
  });

  it('--idempotency-key auto makes a fresh UUID each time; a given key is kept', () => {
    const a = idempotencyKey('auto')!;
    expect(a).toMatch(/^[0-9a-f-]{36}$/);
    expect(idempotencyKey('auto')).not.toBe(a);
    expect(idempotencyKey('order-7')).toBe('order-7');
    expect(idempotencyKey(undefined)).toBeUndefined();
    expect(caught(() => idempotencyKey(' '), UsageError).input).toBe('idempotencyKey');
  });
});
