/**
 * The bundles' source maps (dist/cli/*.map): with SVC_DEBUG=1 or NODE_OPTIONS=--enable-source-maps,
 * a stack (which --verbose prints for an unexpected error) the stack names the TypeScript files and lines; a
 * normal run never loads a map. The error is real: a preload makes node:crypto's key generation
 * fail ('no entropy'), so `svc keys generate` fails where src/crypto/keys.ts asks OpenSSL for a key.
 */
import { spawnSync } from 'node:child_process';
import { readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { REPO_ROOT, SVC_BIN, svcEnv, tempConfigDir } from '../helpers/spawn-svc.js';

const VERBS = join(REPO_ROOT, 'dist', 'cli', 'verbs.cjs');

/** Runs `svc keys generate` with no entropy; the preload reports at exit whether Node loaded the verbs bundle's map. */
function generateWithoutEntropy(args: string[], env: NodeJS.ProcessEnv = {}) {
  const dir = tempConfigDir();
  const preload = join(dir, 'no-entropy.cjs');
  const report = join(dir, 'map-loaded');
  writeFileSync(
    preload,
    `require('node:crypto').createECDH = () => { throw new Error('no entropy'); };
process.on('exit', () => require('node:fs').writeFileSync(${JSON.stringify(report)},
  String(require('node:module').findSourceMap(${JSON.stringify(VERBS)}) !== undefined)));`,
  );
  const r = spawnSync(process.execPath, ['--require', preload, SVC_BIN, 'keys', 'generate', ...args], {
    env: svcEnv(dir, env),
    encoding: 'utf8',
  });
  return { code: r.status, stderr: r.stderr, mapLoaded: readFileSync(report, 'utf8') === 'true' };
}

describe('source maps', () => {
  it('point a stack trace into the TypeScript sources with SVC_DEBUG=1', () => {
    const r = generateWithoutEntropy(['--verbose'], { SVC_DEBUG: '1' });
    expect(r.code).toBe(1);
    expect(r.stderr).toContain('Error: no entropy');
    expect(r.stderr).toMatch(/at generateKeyPair \(.*src[\\/]crypto[\\/]keys\.ts:\d+:\d+\)/);
    expect(r.stderr).toMatch(/commands[\\/]keys[\\/]generate\.ts:\d+:\d+/);
    expect(r.stderr).not.toContain('verbs.cjs:');
    expect(r.mapLoaded).toBe(true);
  });

  it('are loaded for NODE_OPTIONS=--enable-source-maps, which the code cache leaves to Node', () => {
    const r = generateWithoutEntropy([], { NODE_OPTIONS: '--enable-source-maps' });
    expect(r.code).toBe(1);
    expect(r.mapLoaded).toBe(true);
  });

  it('are not read by a normal run, even with --verbose', () => {
    const r = generateWithoutEntropy([]);
    expect(r.code).toBe(1);
    expect(r.stderr).toBe('Error: no entropy\n');
    expect(r.mapLoaded).toBe(false);
    expect(generateWithoutEntropy(['--verbose']).mapLoaded).toBe(false);
  });
});
