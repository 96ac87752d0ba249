/**
 * Small files for the next engineer: no source file of the CLI (`commands/`) or the library
 * (`src/`) is over 300 lines. A file that grows past it is split by what its parts do.
 */
import { readdirSync, readFileSync } from 'node:fs';
import { dirname, join, relative } from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';

const REPO_ROOT = join(dirname(fileURLToPath(import.meta.url)), '..', '..');
const MAX_LINES = 300;

/** Every .ts file under the folder, relative to the repository. */
function sources(folder: string): string[] {
  return readdirSync(join(REPO_ROOT, folder), { recursive: true, withFileTypes: true })
    .filter((entry) => entry.isFile() && entry.name.endsWith('.ts'))
    .map((entry) => relative(REPO_ROOT, join(entry.parentPath, entry.name)));
}

const lineCount = (file: string) => readFileSync(join(REPO_ROOT, file), 'utf8').replace(/\n$/, '').split('\n').length;

describe('source files', () => {
  const files = [...sources('src'), ...sources('commands')];

  it('finds the sources', () => {
    expect(files.length).toBeGreaterThan(100);
  });

  it(`are at most ${MAX_LINES} lines each`, () => {
    const long = files.map((file) => ({ file, lines: lineCount(file) })).filter((f) => f.lines > MAX_LINES);
    expect(long).toEqual([]);
  });
});
