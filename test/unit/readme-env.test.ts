/**
 * The README lists every environment variable the code reads, so a CI author can
 * find them all in one table. The variables are collected from the source itself.
 */
import { readdirSync, readFileSync, statSync } from 'node:fs';
import { join } from 'node:path';
import { expect, it } from 'vitest';
import { REPO_ROOT } from '../helpers/spawn-svc.js';

function sources(dir: string): string[] {
  return readdirSync(dir).flatMap((name) => {
    const path = join(dir, name);
    if (statSync(path).isDirectory()) return name === 'emulator' ? [] : sources(path); // the emulator reads none
    return /\.(ts|cts|js)$/.test(name) ? [path] : [];
  });
}

/** `env.NAME`, `env['NAME']`, `env(e, 'NAME')`, `envValue(env, 'name')` and quoted SERVICE_/SVC_ names. */
function variablesRead(text: string): string[] {
  const found = new Set<string>();
  const patterns = [
    /\benv\.([A-Z][A-Z0-9_]+)/g,
    /\benv\[['"]([A-Z][A-Z0-9_]+)['"]\]/g,
    /\benv\w*\(\w+, '([A-Za-z_]+)'\)/g,
    /['"`]((?:SERVICE|SVC)_[A-Z0-9_]+)/g,
  ];
  for (const pattern of patterns) for (const m of text.matchAll(pattern)) found.add(m[1]!.toUpperCase());
  return [...found];
}

it('every environment variable read by bin/, commands/ and src/ is in the README', () => {
  const readme = readFileSync(join(REPO_ROOT, 'README.md'), 'utf8');
  const read = new Set(
    ['bin', 'commands', 'src']
      .flatMap((d) => sources(join(REPO_ROOT, d)))
      .flatMap((f) => variablesRead(readFileSync(f, 'utf8'))),
  );
  read.delete('PATH');
  expect([...read].length).toBeGreaterThan(10);
  const missing = [...read].filter(
    (name) =>
      !readme.includes(`\`${name}\``) &&
      !new RegExp(`\`${name}\`|${name}\\b`).test(readme.split('## Configuration')[1] ?? ''),
  );
  expect(missing).toEqual([]);
});
