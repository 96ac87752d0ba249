#!/usr/bin/env node
// Tiny on purpose: startup time is a feature (README "Performance"). bin/package.json makes this
// file CommonJS. It answers --version itself, chooses V8's settings before any code compiles, and
// loads the bundled command root (dist/cli/svc.cjs, built by .ci/build.mjs), which loads one
// verb's bundle only when that verb runs.
'use strict';
const args = process.argv.slice(2);
if (args.length === 1 && (args[0] === '--version' || args[0] === '-V')) {
  // The most common scripted call answers without loading the command tree.
  process.stdout.write(require('../package.json').version + '\n');
} else {
  // undici parses HTTP with a WebAssembly module. V8 compiles it with its baseline compiler
  // (Liftoff), then recompiles it with TurboFan on background threads, and Node waits for those
  // compiles before it exits: about 70 ms on every command that makes a request, for a handful of
  // requests that never benefit. So a command keeps the baseline code; the servers (emulator start,
  // webhook listen) keep the optimising tier, and help, which compiles no WebAssembly, skips the
  // setting. It is set here, before anything compiles, because V8 refuses a code cache made under
  // other flags (see compile-cache.js).
  const serves = args.includes('emulator') || args.includes('webhook');
  const helpOnly =
    !args.some((a) => !a.startsWith('-')) || args.some((a) => a === '--help' || a === '-h' || a === 'help');
  const baseline = !serves && !helpOnly;
  if (baseline) require('node:v8').setFlagsFromString('--liftoff-only');
  const { enableCompileCache } = require('node:module');
  if (enableCompileCache)
    enableCompileCache(); // Node 22.1+: Node keeps compiled code between runs
  else require('./compile-cache.js').cacheCompiledCode(baseline ? 'liftoff' : 'default'); // Node 20
  require('../dist/cli/svc.cjs')
    .main(process.argv)
    .then((code) => {
      process.exitCode = code;
    });
}
