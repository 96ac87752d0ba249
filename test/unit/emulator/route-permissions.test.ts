/**
 * Each route declares the API token permission it needs, next to its handler (Route.permission):
 * every route of every area has one, reads need VIEW, only routes outside the API (public pages,
 * the emulator's own endpoints) need none, and a token without it gets 403 exactly where the
 * description's operation declares 403 (else 401).
 */
import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { FEATURES } from '../../../src/emulator/features.js';
import { operationOf } from '../../../src/emulator/kernel/request-check/index.js';

const digest = JSON.parse(readFileSync(new URL('../../contract/api-schema.json', import.meta.url), 'utf8')) as {
  operations: Record<string, { security: string[]; responses: Record<string, unknown> }>;
};
const routes = FEATURES.flatMap((feature) => (feature.routes ?? []).map((route) => ({ feature: feature.name, route })));
const named = ({ feature, route }: (typeof routes)[number]) => `${feature}: ${route.method} ${route.path}`;

describe('route permissions', () => {
  it('every route declares one of VIEW, TRANSACT, MANAGE or none', () => {
    const undeclared = routes.filter(({ route }) => !['VIEW', 'TRANSACT', 'MANAGE', 'none'].includes(route.permission));
    expect(routes.length).toBeGreaterThan(100);
    expect(undeclared.map(named)).toEqual([]);
  });

  it('reads need VIEW', () => {
    const reads = routes.filter(({ route }) => route.method === 'GET' && !route.unversioned && !route.public);
    expect(reads.filter(({ route }) => route.permission !== 'VIEW').map(named)).toEqual([]);
  });

  it('only routes outside the API or without Authorization need none', () => {
    const none = routes.filter(({ route }) => route.permission === 'none');
    expect(none.filter(({ route }) => !route.unversioned && !route.public).map(named)).toEqual([]);
  });

  it("refuses with 403 exactly where the description's operation declares it for platform credentials", () => {
    const wrong = routes.filter(({ route }) => {
      const operation = operationOf(route);
      const described = operation ? digest.operations[operation] : undefined;
      if (!described?.security.includes('BasicAuth')) return route.permissionRefusal !== undefined;
      return (route.permissionRefusal === 403) !== Object.hasOwn(described.responses, '403');
    });
    expect(wrong.map(named)).toEqual([]);
  });
});
