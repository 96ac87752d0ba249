#!/usr/bin/env node
// Tiny on purpose: startup time is a feature. bin/package.json makes this file CommonJS; the
// command root (commands/program.ts) loads next, and a verb's modules only when it runs.
'use strict';
const args = process.argv.slice(2);
if (args.length === 1 && (args[0] === '--version' || args[0] === '-V')) {
  // The most common scripted call answers without loading the command tree.
  process.stdout.write(require('../package.json').version + '\n');
} else {
  // require(esm), synchronous on Node 20.19+, keeps libuv's threadpool unstarted until a verb
  // loads (see commands/webhook/verbs.ts, which sizes it first).
  require('../dist/commands/program.js')
    .main(process.argv)
    .then((code) => {
      process.exitCode = code;
    });
}
