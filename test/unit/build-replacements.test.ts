/**
 * The build's replacements of dependency files (.ci/build.mjs, .ci/BUILD.md): each one must apply,
 * or the build fails naming it, so a dependency that moves a file cannot leave a stub silently unused.
 */
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
// @ts-expect-error: a build script in plain JavaScript, with no declarations
import { replacementLedger, unusedMessage } from '../../.ci/build/replacements.mjs';
import { REPO_ROOT } from '../helpers/spawn-svc.js';

describe('the replacement ledger', () => {
  it('lists the replacements that never applied, and counts the others', () => {
    const ledger = replacementLedger();
    ledger.expect('LAZY: a');
    ledger.expect('LAZY: b');
    ledger.mark('LAZY: a');
    ledger.mark('LAZY: a');
    expect(ledger.unused()).toEqual(['LAZY: b']);
    expect(ledger.counts()).toEqual({ 'LAZY: a': 2, 'LAZY: b': 0 });
  });

  it('refuses to count a replacement nobody declared', () => {
    const ledger = replacementLedger();
    expect(() => ledger.mark('LAZY: stray')).toThrow(/LAZY: stray.*never expected/);
  });

  it('fails with a message naming every unused replacement and the fix', () => {
    const message = unusedMessage([
      'LAZY: semver imported by conf/dist/source/index.js',
      'undici → .ci/undici-core.cjs',
    ]);
    expect(message).toContain('these 2 replacements matched nothing');
    expect(message).toContain('  - LAZY: semver imported by conf/dist/source/index.js');
    expect(message).toContain('  - undici → .ci/undici-core.cjs');
    expect(message).toContain('.ci/BUILD.md');
  });
});

describe('the build of this tree', () => {
  const meta = JSON.parse(readFileSync(join(REPO_ROOT, 'dist', 'cli', 'svc.meta.json'), 'utf8')) as {
    replacements?: Record<string, number>;
  };

  it('applied every replacement it declares at least once', () => {
    const replacements = Object.entries(meta.replacements ?? {});
    // The stubs and redirects of .ci/build.mjs: undici's core, each LAZY entry, each root chunk.
    expect(replacements.filter(([name]) => name.startsWith('LAZY: ')).length).toBeGreaterThanOrEqual(5);
    expect(replacements.some(([name]) => name.startsWith('undici → '))).toBe(true);
    expect(replacements.filter(([, times]) => times === 0)).toEqual([]);
  });
});
