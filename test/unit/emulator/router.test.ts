/**
 * The router's index by method and first segment must answer exactly what a scan of the whole table
 * would: the first matching route in table order, parameters in the first segment included, and
 * 404/405 as before.
 */
import { describe, expect, it } from 'vitest';
import { type Route, Router } from '../../../src/emulator/kernel/router.js';

/** A route whose logPath carries its name, so a test can tell which one matched. */
const route = (method: string, path: string, name: string): Route => ({
  method,
  path,
  permission: 'VIEW',
  logPath: name,
  handler: () => ({ status: 200 }),
});

const router = new Router().add([
  route('POST', '/transfer-out', 'agent gate'),
  route('GET', '/customers/internal-accounts', 'accounts'),
  route('GET', '/customers/:id(Customer)', 'customer'),
  route('GET', '/:anything/probe', 'param head'),
  route('POST', '/transfer-out', 'transfers'),
  route('DELETE', '/customers/:id(Customer)', 'delete customer'),
]);

describe('router index', () => {
  it.each([
    ['POST', '/transfer-out', 'agent gate'],
    ['GET', '/customers/internal-accounts', 'accounts'],
    ['GET', '/customers/Customer:1', 'customer'],
    ['GET', '/customers/probe', 'param head'],
    ['GET', '/cards/probe', 'param head'],
    ['DELETE', '/customers/Customer:1', 'delete customer'],
  ])('%s %s → %s (the first match in table order)', (method, path, name) => {
    expect(router.find(method, path)?.route.logPath).toBe(name);
  });

  it('keeps path parameters', () => {
    expect(router.find('GET', '/customers/Customer%3A1')?.params).toEqual({ id: 'Customer:1' });
  });

  it('answers 405 with Allow for a known path and another method, 404 for an unknown one', () => {
    expect(() => router.match('PUT', '/customers/Customer:1')).toThrow(expect.objectContaining({ status: 405 }));
    expect(() => router.match('GET', '/nothing/here/at/all')).toThrow(expect.objectContaining({ status: 404 }));
    expect(router.find('GET', '/nothing')).toBeUndefined();
  });

  it('sees routes added after a first lookup', () => {
    const r = new Router().add([route('GET', '/a', 'a')]);
    expect(r.find('GET', '/b')).toBeUndefined();
    r.add([route('GET', '/b', 'b')]);
    expect(r.find('GET', '/b')).toBeDefined();
  });
});
