// Run before every npm script that needs the dev dependencies (the checks, the build, the tests,
// the demo and the benches): in a clone where nothing is installed yet (`npm run typecheck` before
// `npm ci`), the tools would be "not found". This runs the one setup step, `npm ci`, once, saying
// so on stderr, and then the script goes on. Nothing happens when the tools are there.
import { execFileSync } from 'node:child_process';
import { existsSync } from 'node:fs';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';

const root = resolve(dirname(fileURLToPath(import.meta.url)), '..');
/** A command of each dev dependency the scripts call, as npm links it in node_modules/.bin. */
const TOOLS = ['tsc', 'biome', 'vitest', 'esbuild', 'knip', 'depcruise'];
const bin = join(root, 'node_modules', '.bin');
const missing = TOOLS.filter((tool) => !existsSync(join(bin, process.platform === 'win32' ? `${tool}.cmd` : tool)));

if (missing.length > 0) {
  console.error(`The dev dependencies are not installed (${missing.join(', ')} missing): running npm ci first.`);
  // npm_execpath is the npm running this script; the npm on PATH otherwise.
  const npm = process.env.npm_execpath;
  try {
    if (npm) execFileSync(process.execPath, [npm, 'ci'], { cwd: root, stdio: 'inherit' });
    else execFileSync(process.platform === 'win32' ? 'npm.cmd' : 'npm', ['ci'], { cwd: root, stdio: 'inherit', shell: process.platform === 'win32' });
  } catch {
    console.error('npm ci failed: install the dev dependencies (npm ci) and run the script again.');
    process.exit(1);
  }
}
