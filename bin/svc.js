#!/usr/bin/env node
// Tiny on purpose: startup time is a feature. bin/package.json makes this file CommonJS, like the
// root of the built CLI (see commands/program.cts for why); command modules load on demand.
'use strict';
const args = process.argv.slice(2);
if (args.length === 1 && (args[0] === '--version' || args[0] === '-V')) {
  // The most common scripted call answers without loading the command tree.
  process.stdout.write(require('../dist/commands/version.cjs').VERSION + '\n');
} else {
  require('../dist/commands/program.cjs')
    .main(process.argv)
    .then((code) => {
      process.exitCode = code;
    });
}
