/**
 * The library's public surface is a named list (src/index.ts): no `export *`, so a new export of
 * an inner module is not public until someone lists it there.
 */
import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import * as library from '../../src/index.js';

describe('the public surface', () => {
  const text = readFileSync(new URL('../../src/index.ts', import.meta.url), 'utf8');

  it('names every export in src/index.ts: no export *', () => {
    expect(text).not.toMatch(/export \*/);
  });

  it('exports at run time exactly the values it names', () => {
    const named = [...text.matchAll(/^export \{([^}]*)\}/gm)]
      .flatMap((m) => m[1]!.split(','))
      .map((n) => n.trim())
      .filter((n) => n !== '' && !n.startsWith('type '));
    expect(Object.keys(library).sort()).toEqual([...new Set(named)].sort());
  });
});
