#!/usr/bin/env node
// Tiny on purpose: startup time is a feature (README "Performance"). bin/package.json makes this
// file CommonJS. It answers --version and the root's --help to a pipe itself, turns on the code
// caches, sets V8 up for a short-lived command (keepWebAssemblyOnBaselineTier) and loads the
// bundled command root (dist/cli/svc.cjs, built by .ci/build.mjs), which loads one verb's bundle
// only when that verb runs.
'use strict';
const args = process.argv.slice(2);
if (args.length === 1 && (args[0] === '--version' || args[0] === '-V')) {
  // The most common scripted call answers without loading the command tree.
  process.stdout.write(require('../package.json').version + '\n');
} else if (!(args.length === 1 && (args[0] === '--help' || args[0] === '-h') && printBuiltRootHelp())) {
  const tmp = tmpdir();
  // Node 22.1+'s compile cache, first, so that it covers the two files required below as well.
  // Asked only where it exists: on Node 20 loading node:module would cost time for nothing. Its
  // folder is Node's default, named here: Node would load node:os to find the temporary folder.
  const [major, minor] = process.versions.node.split('.').map(Number);
  if (major > 22 || (major === 22 && minor >= 1)) {
    require('node:module').enableCompileCache(
      process.platform === 'win32' ? undefined : require('node:path').join(tmp, 'node-compile-cache'),
    );
  }
  // The root's own argv scanner (commands/argv-words.ts), built with the global flags that take a
  // value: the word after one of those is not a command.
  const argvWords = require('../dist/cli/argv-words.cjs');
  const helpOnly = argvWords.asksForHelp(args, argvWords.GLOBAL_VALUE_FLAGS);
  // Our bundles keep the code of every function a run compiled (compile-cache.js), with one cache
  // for help and one per command, which compile different parts of them. Node
  // 22.1+'s own cache keeps top-level code only (so more would be compiled again), so it covers
  // the rest: the two files of bin/ and dist/cli/ above and the prompt and spinner libraries
  // loaded from node_modules.
  // Stack traces (printed by --verbose for an unexpected error) point into src/ and commands/
  // through the bundles' source maps with SVC_DEBUG=1 or NODE_OPTIONS=--enable-source-maps. Node
  // then reads each bundle's map as it loads it, and the code cache is off: never in a normal run.
  if (process.env.SVC_DEBUG === '1') process.setSourceMapsEnabled(true);
  const compileCache = require('./compile-cache.js');
  compileCache.cacheCompiledCode(
    helpOnly ? 'help' : `run-${cacheKey(argvWords.commandWords(args, argvWords.GLOBAL_VALUE_FLAGS))}`,
    tmp,
  );
  // The servers (emulator start, webhook listen) keep V8's optimising tier for WebAssembly; help
  // connects nowhere.
  const serves = args.includes('emulator') || args.includes('webhook');
  if (!serves && !helpOnly) keepWebAssemblyOnBaselineTier();
  require('../dist/cli/svc.cjs')
    .main(process.argv)
    .then((code) => {
      process.exitCode = code;
    });
}

/**
 * undici, the HTTP client of a command run through a proxy (a direct connection uses node:http and
 * never gets here), parses HTTP with a WebAssembly module. V8 compiles it with its baseline compiler (Liftoff),
 * then recompiles the hot parts with TurboFan on background threads, which the process waits for at
 * exit: more CPU than a handful of requests ever gains back (CHANGELOG.md has the figure). So a command keeps
 * the baseline code (--liftoff-only), set at the last moment, just before the first connection,
 * when undici compiles its parser:
 * - Node's built-in modules carry a code cache that V8 refuses once any V8 flag has changed, so each
 *   one loaded after the change is compiled from source (http, net, crypto…);
 * - V8 refuses a code cache (ours in compile-cache.js, and Node's) made under other flags, so the
 *   flags are put back at exit, before the caches are written.
 * A command that never connects (keys, config) changes nothing.
 */
function keepWebAssemblyOnBaselineTier() {
  const channels = require('node:diagnostics_channel');
  const beforeFirstConnection = () => {
    channels.unsubscribe('undici:client:beforeConnect', beforeFirstConnection);
    const v8 = require('node:v8');
    // Spelled out: newer V8s (Node 24) no longer apply --liftoff-only's implications to a flag set
    // at run time, and then still tier up.
    v8.setFlagsFromString('--liftoff-only --no-wasm-tier-up --no-wasm-dynamic-tiering');
    process.prependOnceListener('exit', () =>
      v8.setFlagsFromString('--no-liftoff-only --wasm-tier-up --wasm-dynamic-tiering'),
    );
  };
  channels.subscribe('undici:client:beforeConnect', beforeFirstConnection);
}

/** The first two command words (`session-refresh`), as a file-name-safe key. */
function cacheKey(words) {
  return words
    .slice(0, 2)
    .join('-')
    .replace(/[^\w.-]/g, '_')
    .slice(0, 60);
}

/**
 * os.tmpdir() as Node computes it on POSIX (the only systems the caches run on), without loading
 * node:os, which a command would otherwise load for this alone.
 */
function tmpdir() {
  const dir = process.env.TMPDIR || process.env.TMP || process.env.TEMP || '/tmp';
  return dir.length > 1 && dir.endsWith('/') ? dir.slice(0, -1) : dir;
}

/**
 * The root's help printed to a pipe or file is the same text every time (only a terminal's width
 * changes it): the build wrote it (.ci/build.mjs, part 6), so the command tree is not built for it.
 * False on a terminal, or before the build has written it (the build's own run of --help).
 */
function printBuiltRootHelp() {
  if (process.stdout.isTTY) return false;
  let text;
  try {
    text = require('node:fs').readFileSync(require('node:path').join(__dirname, '..', 'dist', 'cli', 'help.txt'));
  } catch {
    return false;
  }
  process.stdout.write(text);
  return true;
}
