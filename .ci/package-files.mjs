// The package's files that live under .ci/package/ because the top level of the repository is kept
// to the project's own folders: LICENSE and CHANGELOG.md. `npm pack` and `npm publish` run
// `add` before packing (prepack) and `remove` after (postpack), so the tarball has them at its root.
// Usage: node .ci/package-files.mjs add|remove
import { copyFileSync, readdirSync, rmSync } from 'node:fs';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';

const here = resolve(dirname(fileURLToPath(import.meta.url)), 'package');
const root = resolve(here, '..', '..');
const action = process.argv[2];
if (action !== 'add' && action !== 'remove') {
  console.error('usage: node .ci/package-files.mjs add|remove');
  process.exit(2);
}
for (const name of readdirSync(here)) {
  if (action === 'add') copyFileSync(join(here, name), join(root, name));
  else rmSync(join(root, name), { force: true });
}
