// V8's code cache for the CLI bundles (dist/cli/*.cjs): the first run of a command saves, at exit,
// the code V8 compiled for the bundles it loaded, and later runs start from it instead of parsing
// and compiling again. Saved at exit, it holds every function
// the run compiled, where Node's own compile cache (module.enableCompileCache, 22.1+) keeps only
// what compiled at load: so it is used on every Node version, and Node's for the other modules.
//
// The cache lives in a folder of the user's own (0700, checked before use) under the OS temporary
// folder, as Node's own compile cache does, one file per bundle, keyed by:
// - the folder the bundle is in: two installs, or a checkout beside a global install, must not
//   evict each other's cache on every run;
// - what the run is (`variant`): help, or the command's words, since help and each command
//   compile different functions of the bundles (all verbs share dist/cli/verbs.cjs), and a cache
//   holds only what its first run compiled;
// - for dist/cli/verbs.cjs, the part of it the run read (`~` and a hash of its modules): a
//   command reads only the modules its verb can need (partialBundle below);
// - the V8 version, and the bundle's build (stampOf: size, modification and change times, inode).
// V8 also refuses a cache made under other V8 flags: svc.js changes one only after the bundles are
// loaded, and puts it back before this saves at exit. V8 checks each cache against the source it is
// used for and rejects a mismatch; a rejected or missing cache is written anew at exit. Any error
// disables caching for the run: the cache only ever saves time.
'use strict';
const fs = require('node:fs');
const path = require('node:path');
// CommonJS's Module itself: require('node:module') would also load, on Node 20, the ES-module
// loader and source-map modules that the public `module` builtin brings.
const Module = module.constructor;
const { Script } = require('node:vm');

const BUNDLES = path.join(__dirname, '..', 'dist', 'cli') + path.sep;

/** The cache folder in the temporary folder `tmp`, created if needed; undefined when it is not ours alone. */
function cacheDir(tmp) {
  if (typeof process.getuid !== 'function') return undefined; // POSIX only
  const dir = path.join(tmp, `svc-compile-cache-${process.getuid()}`);
  fs.mkdirSync(dir, { recursive: true, mode: 0o700 });
  const st = fs.statSync(dir);
  return st.uid === process.getuid() && (st.mode & 0o077) === 0 ? dir : undefined;
}

/**
 * What tells one build of a bundle from another in a cache's name: its size, modification time,
 * change time and inode. V8 checks a cache only against its source's length, and npm gives every
 * file it installs the same modification time, so an upgrade whose bundle kept its length would
 * otherwise run the old version's code; a new install writes new files, with a new inode and
 * change time.
 */
function stampOf(st) {
  return `${st.size}-${Math.trunc(st.mtimeMs)}-${Math.trunc(st.ctimeMs)}-${st.ino}`;
}

/** FNV-1a of a text, in hex: short, and cheaper than loading node:crypto for a hash. */
function fnv(text) {
  let h = 0x811c9dc5;
  for (let i = 0; i < text.length; i++) h = Math.imul(h ^ text.charCodeAt(i), 0x01000193);
  return (h >>> 0).toString(16);
}

/**
 * dist/cli/verbs.cjs holds every verb and the code they share (.ci/build.mjs); its index (written
 * beside it by the same build) says where each module's text is in it and which modules it names,
 * so a command reads only the modules it can need: about a fifth of the bundle, which saves
 * reading, copying and compiling the rest (about 10 ms on `sandbox fund`).
 */
const VERBS = `${BUNDLES}verbs.cjs`;
const VERBS_INDEX = `${BUNDLES}verbs.index.json`;

/** The index of the verbs bundle `st` describes, or undefined (none, or of another build). */
function verbsIndex(st) {
  let index;
  try {
    index = JSON.parse(fs.readFileSync(VERBS_INDEX, 'latin1'));
  } catch {
    return undefined;
  }
  if (index.size !== st.size) return undefined;
  index.place = new Map(index.ids.map((id, i) => [id, i]));
  return index;
}

/**
 * The buffer every read of a bundle or a cache goes through, kept for the process's life (256 kB,
 * or the largest text the process read, if larger). A buffer of this size is memory the
 * process maps anew each time, and on the VMs this was measured on each 4 kB page costs 11-17 µs
 * the first time it is touched; one buffer reused saves `sandbox fund` about 70 of its 3,100 page
 * faults. A text read into it is copied out into its string, and V8 is done with a code cache when
 * `new Script` returns, so each read may reuse it.
 */
let scratch = Buffer.alloc(0);
function scratchOf(size) {
  if (scratch.length < size) scratch = Buffer.allocUnsafeSlow(Math.max(size, 256 * 1024));
  return scratch;
}

/** The whole file `name`, in the scratch buffer (valid until the next read). */
function readWhole(name) {
  const fd = fs.openSync(name, 'r');
  try {
    const size = fs.fstatSync(fd).size;
    const buffer = scratchOf(size);
    let at = 0;
    for (let read; at < size && (read = fs.readSync(fd, buffer, at, size - at, at)) > 0; ) at += read;
    return buffer.subarray(0, at);
  } finally {
    fs.closeSync(fd);
  }
}

/**
 * The bytes of `ranges` ([start, end] each, in order) of the file, between `before` and `after`, as
 * one latin1 string (the bundles are ASCII): read into the scratch buffer, so the text is copied
 * once more, into the string, and never joined.
 */
function readRanges(fd, ranges, before = '', after = '') {
  // Neighbouring ranges are read in one call.
  const merged = [];
  let length = 0;
  for (const [start, end] of ranges) {
    const last = merged[merged.length - 1];
    if (last !== undefined && last[1] === start) last[1] = end;
    else merged.push([start, end]);
    length += end - start;
  }
  const text = scratchOf(before.length + length + after.length);
  let at = text.write(before, 0, 'latin1');
  for (const [start, end] of merged) {
    for (let position = start; position < end; ) {
      const read = fs.readSync(fd, text, at, end - position, position);
      if (read === 0) throw new Error('a bundle of dist/cli ended before its expected length: rebuild (npm run build)');
      at += read;
      position += read;
    }
  }
  at += text.write(after, at, 'latin1');
  return text.toString('latin1', 0, at);
}

/**
 * Caches of other installs (an npx folder of an older version, a removed checkout) are replaced by
 * no later run of theirs, so they would stay until the OS empties its temporary folder: one not
 * rewritten for PRUNE_AFTER_MS is removed. Only a run that saves pays for this; a removed cache that
 * was still in use only costs its install one recompile.
 */
const PRUNE_AFTER_MS = 30 * 24 * 3600 * 1000;
function pruneStale(dir, names, loaded) {
  const now = Date.now();
  for (const name of names) {
    if (loaded.some(({ prefix }) => name.startsWith(prefix))) continue;
    const file = path.join(dir, name);
    try {
      if (now - fs.statSync(file).mtimeMs > PRUNE_AFTER_MS) fs.unlinkSync(file);
    } catch {}
  }
}

/**
 * This install's caches of bundles its build no longer has: a rebuild gives the shared chunks new
 * names (chunk-<hash>.cjs) and the other bundles another stamp (stampOf), and a cache of
 * the old file is never used again. Removed when a run saves, from the folder listing it already
 * made: a name is removed only if it has the exact form this file writes, for this install, and
 * its bundle is gone or is another build now (the stamp in the name, stampOf).
 * Returns the names left.
 */
function pruneOtherBuilds(dir, names, folder) {
  const tag = `@${folder}-`;
  const stamps = new Map(); // bundle file name → `-<stampOf>-` of the bundle there now, or undefined
  const currentStamp = (bundle) => {
    if (!stamps.has(bundle)) {
      let stamp;
      try {
        stamp = `-${stampOf(fs.statSync(BUNDLES + bundle))}-`;
      } catch {}
      stamps.set(bundle, stamp);
    }
    return stamps.get(bundle);
  };
  return names.filter((name) => {
    const at = name.indexOf(tag);
    if (at <= 0 || !/^[\w.-]+\.cjs$/.test(name.slice(0, at)) || !/-(ok|failed)$/.test(name)) return true;
    const stamp = currentStamp(name.slice(0, at));
    if (stamp !== undefined && name.includes(stamp, at + tag.length)) return true;
    try {
      fs.unlinkSync(path.join(dir, name));
    } catch {}
    return false;
  });
}

/** Turns the cache on for this run's kind (`variant`), in the temporary folder `tmp` (os.tmpdir()'s). */
exports.cacheCompiledCode = function cacheCompiledCode(variant, tmp) {
  // Node maps stack traces only for the modules it compiles itself: with source maps on (a
  // debugging run), the bundles are left to it.
  if (process.sourceMapsEnabled) return;
  let dir;
  try {
    dir = cacheDir(tmp);
  } catch {
    return;
  }
  if (dir === undefined) return;
  const loaded = [];
  const folder = fnv(BUNDLES);
  // A bundle is read straight into its CommonJS wrapper: Module.wrap(text) joins three strings,
  // which V8 then copies into one before compiling, on dist/cli/verbs.cjs, which every command
  // reads. The bundles are ASCII (.ci/build.mjs checks), so latin1 reads the same text without
  // UTF-8 decoding.
  const [head, tail] = Module.wrapper;
  const load = Module._extensions['.js'];
  Module._extensions['.js'] = function (module, filename) {
    if (!filename.startsWith(BUNDLES)) return load.call(this, module, filename);
    const fd = fs.openSync(filename, 'r');
    let st;
    let wrapped;
    let partial = false;
    try {
      st = fs.fstatSync(fd);
      const index = filename === VERBS ? verbsIndex(st) : undefined;
      if (index !== undefined) {
        partial = true;
        module.exports = partialBundle(module, fd, st, index);
        return;
      }
      wrapped = readRanges(fd, [[0, st.size]], head, tail);
    } finally {
      if (!partial) fs.closeSync(fd);
    }
    compileBundle(module, wrapped, filename, st);
  };
  /**
   * The verbs bundle, read a command at a time: `load(id)` reads the modules that id's module can
   * require (VERBS_INDEX), the first time one of them is asked for, and compiles them as one
   * script with its own code cache; a module of the bundle not read yet is read with its own set
   * when asked for. The bundle's exports, as its own tail makes them. The file stays open for the
   * process's life, so a rebuild or an upgrade under a running server is never read half old.
   */
  function partialBundle(module, fd, st, index) {
    const defined = Object.create(null);
    const loaded = Object.create(null);
    /** The exports of a text of the verbs bundle, compiled and run in the CommonJS wrapper (`head`, `tail`). */
    const run = (wrapped, part) => {
      const scope = Object.create(module);
      scope.exports = {};
      compileBundle(scope, wrapped, VERBS, st, part);
      return scope.exports;
    };
    // The bundle's banner and helpers, then an object of the module functions instead of its table.
    const opening = `${head}${readRanges(fd, [[0, index.head]])}module.exports = {\n`;
    const read = (root) => {
      const wanted = new Set();
      const visit = (i) => {
        if (index.ids[i] in defined || wanted.has(i)) return;
        wanted.add(i);
        for (const next of index.modules[i][2]) visit(next);
      };
      visit(index.place.get(root));
      const ids = [...wanted].sort((a, b) => a - b);
      const wrapped = readRanges(
        fd,
        ids.map((i) => index.modules[i]),
        opening,
        `};${tail}`,
      );
      // Each module's text starts where the index says (as .ci/build.mjs writes it), or the index
      // is of another build (an install under way): then the whole bundle is read, as without an index.
      let at = opening.length;
      for (const i of ids) {
        if (!wrapped.startsWith(`${JSON.stringify(index.ids[i])}: function (exports, require, module) {`, at))
          return false;
        at += index.modules[i][1] - index.modules[i][0];
      }
      Object.assign(defined, run(wrapped, `~${fnv(ids.join(','))}`));
      return true;
    };
    /** The whole bundle, compiled as Node would load it: its own exports (load, requireFrom). */
    let whole;
    const requireModule = (id) => {
      if (whole !== undefined) return whole.load(id);
      const done = loaded[id];
      if (done) return done.exports;
      if (!(id in defined) && index.place.has(id) && !read(id)) {
        // Only before any module ran: two copies of one module must never run side by side.
        if (Object.keys(loaded).length > 0) throw new Error(`dist/cli/verbs.cjs changed under a running svc (${id})`);
        whole = run(readRanges(fd, [[0, st.size]], head, tail));
        return whole.load(id);
      }
      const define = defined[id];
      if (define === undefined) return module.require(id);
      const own = (loaded[id] = { exports: {} });
      define.call(own.exports, own.exports, requireModule, own);
      return own.exports;
    };
    return {
      load: requireModule,
      requireFrom: (nodeRequire) => (id) =>
        whole !== undefined
          ? whole.requireFrom(nodeRequire)(id)
          : index.place.has(id)
            ? requireModule(id)
            : nodeRequire(id),
    };
  }
  /** Compiles and runs a bundle's wrapped text with the code cache of this run's kind (and `part` of the bundle). */
  function compileBundle(module, wrapped, filename, st, part = '') {
    // What the cache is for, which a new one replaces (see the exit handler): the V8 version is
    // part of it, so that two Node versions running the same install keep a cache each instead of
    // removing each other's at every switch.
    const prefix = `${path.basename(filename)}@${folder}-${variant}${part}-${process.versions.v8}-`;
    const file = path.join(dir, `${prefix}${stampOf(st)}`);
    // The cache a successful run saved, else one a failed run saved (see below).
    let cachedData;
    let from;
    for (const kind of ['ok', 'failed']) {
      try {
        cachedData = readWhole(`${file}-${kind}`);
        from = kind;
        break;
      } catch {}
    }
    const script = new Script(wrapped, { filename, cachedData });
    loaded.push({
      prefix,
      file,
      script,
      from: script.cachedDataRejected ? undefined : from,
    });
    const require = (id) => module.require(id);
    require.resolve = (request, options) => Module._resolveFilename(request, module, false, options);
    require.cache = Module._cache;
    require.main = process.mainModule;
    const wrapper = script.runInThisContext({ displayErrors: true });
    return wrapper.call(module.exports, module.exports, require, module, filename, path.dirname(filename));
  }
  // At exit the cache holds every function the run compiled, not only the top level; a cache keeps
  // what its first run compiled. A failed run (a usage error, an expired session) compiles its error
  // path, so its cache is kept apart and only until a run of the same bundle succeeds, which saves
  // the cache of the work the command does every other time. Other caches of the same bundle (an
  // older build, a failed run's) are removed then; only a run that saves pays for the listing.
  process.once('exit', (code) => {
    const kind = code === 0 ? 'ok' : 'failed';
    // A success replaces any cache but its own kind; a failure only fills a missing one.
    const toSave = loaded.filter(({ from }) => (kind === 'ok' ? from !== 'ok' : from === undefined));
    if (toSave.length === 0) return;
    let existing = [];
    try {
      existing = fs.readdirSync(dir);
    } catch {}
    pruneStale(dir, existing, loaded);
    existing = pruneOtherBuilds(dir, existing, folder);
    for (const { prefix, file, script } of toSave) {
      const target = `${file}-${kind}`;
      try {
        for (const old of existing) {
          if (old.startsWith(prefix) && path.join(dir, old) !== target) fs.unlinkSync(path.join(dir, old));
        }
        const tmp = `${target}.${process.pid}.tmp`;
        fs.writeFileSync(tmp, script.createCachedData(), { mode: 0o600 });
        fs.renameSync(tmp, target);
      } catch {}
    }
  });
};
