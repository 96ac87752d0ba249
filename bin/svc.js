#!/usr/bin/env node
// Tiny on purpose: startup time is a feature (README "Performance"). bin/package.json makes this
// file CommonJS. It loads the bundled command root (dist/cli/svc.cjs, built by .ci/build.mjs),
// which loads one verb's bundle only when that verb runs.
'use strict';
const args = process.argv.slice(2);
if (args.length === 1 && (args[0] === '--version' || args[0] === '-V')) {
  // The most common scripted call answers without loading the command tree.
  process.stdout.write(require('../package.json').version + '\n');
} else {
  // Node 22.1+ keeps V8's compiled code for the bundles on disk between runs; older Nodes skip it.
  // (Asked only there: on Node 20, loading node:module for nothing costs a millisecond.)
  if (Number(process.versions.node.split('.')[0]) >= 22) require('node:module').enableCompileCache?.();
  require('../dist/cli/svc.cjs')
    .main(process.argv)
    .then((code) => {
      process.exitCode = code;
    });
}
