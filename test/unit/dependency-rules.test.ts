/**
 * The layer rules `npm run deps` checks (.ci/dependency-rules.cjs) refuse what they name: a tree
 * laid out like the project's, with one breach of each rule, fails with every rule named, and the
 * same tree without the breaches passes.
 */
import { execFile } from 'node:child_process';
import { mkdirSync, rmSync, writeFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { promisify } from 'node:util';
import { afterAll, describe, expect, it } from 'vitest';
import { tempDir } from '../helpers/temp-dir.js';

const REPO_ROOT = join(dirname(fileURLToPath(import.meta.url)), '..', '..');
const run = promisify(execFile);
const made: string[] = [];
afterAll(() => {
  for (const dir of made) rmSync(dir, { recursive: true, force: true });
});

function tree(files: Record<string, string>): string {
  const dir = tempDir('svc-deps-');
  made.push(dir);
  const all = { 'tsconfig.json': '{"compilerOptions":{"module":"NodeNext","moduleResolution":"NodeNext"}}', ...files };
  for (const [path, text] of Object.entries(all)) {
    mkdirSync(dirname(join(dir, path)), { recursive: true });
    writeFileSync(join(dir, path), text);
  }
  return dir;
}

async function cruise(dir: string): Promise<{ code: number; out: string }> {
  const bin = join(REPO_ROOT, 'node_modules', 'dependency-cruiser', 'bin', 'dependency-cruise.mjs');
  const config = join(REPO_ROOT, '.ci', 'dependency-rules.cjs');
  try {
    const { stdout } = await run(
      process.execPath,
      [bin, '--config', config, '--output-type', 'err', 'commands', 'src'],
      {
        cwd: dir,
      },
    );
    return { code: 0, out: stdout };
  } catch (error) {
    const e = error as { code: number; stdout: string };
    return { code: e.code, out: e.stdout };
  }
}

const LAYOUT = {
  'commands/main.ts': "import { noun } from './nouns.js';\nexport const main = () => noun;\n",
  'commands/nouns.ts': "export const noun = 'session';\nexport const load = () => import('./meta/completion.js');\n",
  'commands/meta/completion.ts': "import type { noun } from '../nouns.js';\nexport type N = typeof noun;\n",
  'src/http/client.ts': 'export const client = 1;\n',
  'src/emulator/features/accounts/index.ts': "export { balance } from './ledger.js';\n",
  'src/emulator/features/accounts/ledger.ts': 'export const balance = 0;\n',
  'src/emulator/features/quotes/quote.ts':
    "import { balance } from '../accounts/index.js';\nexport const q = balance;\n",
};

describe('the dependency rules', () => {
  it('pass a tree that keeps the layers (a type-only import back is no cycle)', async () => {
    const r = await cruise(tree(LAYOUT));
    expect(r.out).toContain('no dependency violations');
    expect(r.code).toBe(0);
  }, 60_000);

  it('refuse a runtime cycle through a lazy import, src importing commands, the emulator importing the client, and an inner file of another area', async () => {
    const r = await cruise(
      tree({
        ...LAYOUT,
        'commands/meta/completion.ts': "import { noun } from '../nouns.js';\nexport const n = noun;\n",
        'src/index.ts': "import { main } from '../commands/main.js';\nexport { main };\n",
        'src/emulator/kernel/server.ts': "import { client } from '../../http/client.js';\nexport const s = client;\n",
        'src/emulator/features/quotes/quote.ts':
          "import { balance } from '../accounts/ledger.js';\nexport const q = balance;\n",
      }),
    );
    expect(r.code).not.toBe(0);
    for (const rule of ['no-runtime-cycle', 'src-not-commands', 'emulator-not-client', 'feature-through-index'])
      expect(r.out).toContain(rule);
  }, 60_000);
});
