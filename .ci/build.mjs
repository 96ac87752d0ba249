// The build (`npm run build`; `npm test`, `npm run demo`, `npm run bench` and `npm pack` run it first):
// 1. tsc emits dist/src and dist/commands: the library's types (package.json "types"), and the
//    modules the benches and a few tests load.
// 2. esbuild bundles into dist/cli/, each file with its source map: the command root (svc.cjs:
//    commands/main.ts with commander and the verb specs), and verbs.cjs, every verb and the
//    library (library.cjs, package.json "exports") with the code they share, each module in it run
//    only when first required. A command reads two files instead of hundreds, and the package holds
//    each library once however many verbs use it.
// 0. The emulator's request validators, generated from the API description
//    (.ci/request-validators.mjs: src/emulator/kernel/request-check/generated/, operations.js and
//    one opN.cjs an operation, not committed), first, since tsc and esbuild read them; tsc does not
//    copy JavaScript, so they are copied into dist/src beside the module that imports them, and the
//    opN.cjs modules, read at run time, beside the bundle as request-validators/ (part 5).
// 4. argv-words.cjs: the argv scanner (commands/argv-words.ts) with the global flags that take a
//    value (commands/global-flags.ts), for bin/svc.js, which must know the command words before it
//    loads the root.
// 6. help.txt: `svc --help` as printed to a pipe, which bin/svc.js prints without loading the root.
//
// Verbs are found from the registry, not from a list here: every `() => import('./x.js')` in a
// `commands/<noun>/verbs.ts` that the root imports becomes the module `./<noun>.<x>.cjs` of
// verbs.cjs, so a new noun or verb needs no edit to this file (README "Performance").
//
// CommonJS output because it starts fastest on Node 20 and 22: no ES-module loader, and require()
// of one file. `supported: { 'dynamic-import': false }` turns an import() into require().
// Usage: node .ci/build.mjs [--no-tsc]
import { execFileSync } from 'node:child_process';
import { cpSync, mkdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { createRequire, isBuiltin } from 'node:module';
import { basename, dirname, isAbsolute, join, relative, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { decode, encode } from '@jridgewell/sourcemap-codec';
import { build, transform } from 'esbuild';
import { replacementLedger, unusedMessage } from './build/replacements.mjs';

const root = resolve(dirname(fileURLToPath(import.meta.url)), '..');
const out = join(root, 'dist', 'cli');

execFileSync(process.execPath, [join(root, '.ci', 'request-validators.mjs')], { cwd: root, stdio: 'inherit' });
if (!process.argv.includes('--no-tsc')) {
  execFileSync(process.execPath, [join(root, 'node_modules', 'typescript', 'bin', 'tsc'), '-p', 'tsconfig.json'], {
    cwd: root,
    stdio: 'inherit',
  });
  const generated = join('src', 'emulator', 'kernel', 'request-check', 'generated');
  mkdirSync(join(root, 'dist', generated), { recursive: true });
  cpSync(join(root, generated), join(root, 'dist', generated), { recursive: true, filter: (f) => !f.endsWith('.d.ts') });
}
rmSync(out, { recursive: true, force: true });

/** Every replacement of a dependency's file, checked to have applied (.ci/build/replacements.mjs). */
const replacements = replacementLedger();

/** undici's parser without SIMD, in a file of its own next to the bundles, required only if used (see LAZY). */
const LLHTTP_FALLBACK = './llhttp-wasm.cjs';
/** `svc --help`'s text (part 6). */
const ROOT_HELP = 'help.txt';

const common = {
  bundle: true,
  platform: 'node',
  format: 'cjs',
  target: 'node20.19',
  outExtension: { '.js': '.cjs' },
  supported: { 'dynamic-import': false },
  // import.meta.url in CommonJS output: the chunk's own file URL (commands/require-package.ts
  // resolves chalk and ora from it), made when first asked for, since most runs never ask.
  define: { 'import.meta.url': '__svcModule.url' },
  banner: { js: "var __svcModule = { get url() { return require('node:url').pathToFileURL(__filename).href; } };" },
  // Only on a terminal: the prompt library and the spinner stay in node_modules, loaded if asked for.
  external: ['@inquirer/prompts', 'ora', LLHTTP_FALLBACK],
  logLevel: 'warning',
  legalComments: 'none',
  minifySyntax: true,
  minifyWhitespace: true,
  keepNames: false,
};

/** undici's index loads Node's built-in undici as well; the CLI takes only the parts it uses. */
const undiciCore = {
  name: 'undici-core',
  setup(b) {
    const name = 'undici → .ci/undici-core.cjs';
    replacements.expect(name);
    b.onResolve({ filter: /^undici$/ }, () => {
      replacements.mark(name);
      return { path: join(root, '.ci', 'undici-core.cjs') };
    });
  },
};

/** conf's own module, the importer of the libraries it needs only for features svc does not use. */
const CONF_INDEX = /conf[\\/]dist[\\/]source[\\/]index\.js$/;

/** The body of a stub for a module left out of the bundle: a clear error, should it ever be called. */
const OMITTED = (name) =>
  `throw new Error('${name} is not in the svc bundle: the store gives conf no schema or migrations (.ci/build.mjs)');`;

/**
 * Modules a library requires when it loads but uses only on a path svc never or rarely takes. Each
 * is replaced, for that importer only, by a stub that requires the real module (still in the
 * bundle) on first use, or, for a path svc never takes, leaves it out. `stub` gets the real
 * module's path as a JS string literal.
 */
const LAZY = [
  // undici's HTTP/2 client (module.exports = connectH2) requires node:http2, and with it tls and
  // crypto; svc speaks HTTP/1.1.
  {
    importer: /undici[\\/]lib[\\/]dispatcher[\\/]client\.js$/,
    path: './client-h2.js',
    stub: (real) => `let m; module.exports = function (...a) { return (m ??= require(${real})).apply(this, a); };`,
  },
  // commander requires node:child_process when it loads, for executable subcommands (spawn), which
  // svc has none of; child_process brings net, dgram and the stream modules, which help never needs.
  {
    importer: /commander[\\/]lib[\\/]command\.js$/,
    path: 'node:child_process',
    stub: (real) => `module.exports = { spawn: (...a) => require(${real}).spawn(...a) };`,
  },
  // conf itself: loaded when the store first reads or writes a file (src/store/json-file.ts), not
  // when a command merely imports the store.
  {
    importer: /src[\\/]store[\\/][^\\/]+\.ts$/,
    path: 'conf',
    stub: (real) => `module.exports = function Conf(...a) { return new (require(${real}).default)(...a); };`,
  },
  // Not lazy but replaced: atomically (conf's writer) registers its temp-file cleanup with when-exit,
  // which on SIGINT/SIGTERM runs it and sends the signal to the process again. svc handles those
  // signals itself (commands/main.ts: the first stops the command cleanly, a second one exits at
  // once), so that echo would make one Ctrl-C or SIGTERM an immediate exit, cutting off `emulator
  // start` saving its --state. The replacement runs the cleanup at exit, which every clean stop reaches.
  {
    importer: /atomically[\\/]dist[\\/]utils[\\/]temp\.js$/,
    path: 'when-exit',
    stub: () =>
      "const callbacks = new Set(); process.once('exit', () => { for (const callback of callbacks) callback(); }); module.exports = (callback) => { callbacks.add(callback); return () => callbacks.delete(callback); };",
  },
  // undici's llhttp without SIMD, a large string: only a fallback for when the SIMD build does not
  // compile, so it is a file of its own (part 3), read in that case alone.
  {
    importer: /undici[\\/]lib[\\/]dispatcher[\\/]client-h1\.js$/,
    path: '../llhttp/llhttp-wasm.js',
    stub: () => `module.exports = require(${JSON.stringify(LLHTTP_FALLBACK)});`,
  },
  // env-paths, which conf asks for the store's folder only when given none (svc always gives one:
  // src/store/location.ts), reads the home and temporary folders through node:os as it loads.
  {
    importer: CONF_INDEX,
    path: 'env-paths',
    stub: (real) => `let m; module.exports = function (...a) { return (m ??= require(${real}).default)(...a); };`,
  },
  // Not lazy but narrowed: conf compares the store it read with itself plus its defaults by
  // node:assert's deepEqual each time it opens a file, and node:assert loads about ten modules
  // (about 5 ms). svc gives no defaults, so the second is a copy of the first: the same names, each
  // with the very same value, which tells they are equal without a deep comparison (node:util's
  // compiles its functions at first use: about 1.8 ms a command that opens the store). Any other
  // case goes to node:util's strict comparison of the top levels' copies, then to node:assert
  // itself, which decides.
  {
    importer: CONF_INDEX,
    path: 'node:assert',
    stub: (real) =>
      `const sameEntries = (a, b) => { const names = Object.keys(a); return names.length === Object.keys(b).length && names.every((name) => Object.hasOwn(b, name) && Object.is(a[name], b[name])); }; module.exports = { deepEqual(actual, expected) { if (!sameEntries(actual, expected) && !require('node:util').isDeepStrictEqual({ ...actual }, { ...expected })) require(${real}).deepEqual(actual, expected); } };`,
  },
  // conf imports node:crypto when it loads, for its optional encryption (svc gives it no key), and
  // node:crypto loads about a dozen modules: a command that reads the store but signs nothing
  // (`session show`, `config get`) would load them for this alone.
  {
    importer: CONF_INDEX,
    path: 'node:crypto',
    stub: (real) =>
      `module.exports = Object.fromEntries(['pbkdf2Sync', 'createCipheriv', 'createDecipheriv', 'randomBytes'].map((name) => [name, (...a) => require(${real})[name](...a)]));`,
  },
  // stubborn-fs (atomically's file system, under conf) promisifies sixteen node:fs functions as it
  // loads, for asynchronous paths the store never takes (it reads and writes synchronously): about
  // 40 kB of heap a command that opens the store makes for nothing. Each is promisified on its
  // first call instead, by node:util itself, so it behaves as before.
  {
    importer: /stubborn-fs[\\/]dist[\\/]index\.js$/,
    path: 'node:util',
    stub: (real) =>
      `module.exports = { promisify(fn) { let promisified; return function (...a) { return (promisified ??= require(${real}).promisify(fn)).apply(this, a); }; } };`,
  },
  // Left out: conf's schema validation (ajv, ajv-formats) and migrations (semver), code that every
  // bundle writing the store would read on each run. The store passes conf neither a schema
  // nor migrations (src/store/json-file.ts), so conf never calls them; if it ever did, the stub
  // says why instead of validating silently.
  {
    importer: CONF_INDEX,
    path: 'ajv/dist/2020.js',
    stub: () => `exports.Ajv2020 = function () { ${OMITTED('ajv')} };`,
  },
  {
    importer: CONF_INDEX,
    path: 'ajv-formats',
    stub: () => `module.exports = { default: () => { ${OMITTED('ajv-formats')} } };`,
  },
  {
    importer: CONF_INDEX,
    path: 'semver',
    stub: () =>
      `const omitted = () => { ${OMITTED('semver')} }; module.exports = { eq: omitted, clean: omitted, satisfies: omitted, lte: omitted, gt: omitted };`,
  },
];
const lazyModules = {
  name: 'lazy-modules',
  setup(b) {
    for (const [i, lazy] of LAZY.entries()) {
      const name = `LAZY: ${lazy.path} imported by ${lazy.importer.source.replaceAll('[^\\\\/]+', '*').replaceAll('[\\\\/]', '/').replaceAll('\\.', '.').replace(/\$$/, '')}`;
      replacements.expect(name);
      const filter = new RegExp(`^${lazy.path.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')}$`);
      b.onResolve({ filter }, async (args) => {
        if (args.namespace !== 'file' || !lazy.importer.test(args.importer)) return undefined;
        const real = await b.resolve(args.path, { resolveDir: args.resolveDir, kind: args.kind });
        if (real.errors.length > 0) return { errors: real.errors };
        replacements.mark(name);
        // A Node built-in stays external: the stub requires it by name. Other paths are kept relative
        // to the project, since they name the stub's module in the bundle.
        return { path: real.external ? args.path : relative(root, real.path), namespace: 'lazy', pluginData: i };
      });
    }
    b.onLoad({ filter: /.*/, namespace: 'lazy' }, (args) => {
      const builtin = args.path.startsWith('node:');
      const real = builtin ? args.path : join(root, args.path);
      return {
        resolveDir: builtin ? root : dirname(real),
        loader: 'js',
        contents: LAZY[args.pluginData].stub(JSON.stringify(real)),
      };
    });
  },
};

/** commands/<noun>/verbs.ts → the noun; anything else → undefined. */
function nounOf(file) {
  const rel = relative(join(root, 'commands'), file).split(/[\\/]/);
  return rel.length === 2 && rel[1] === 'verbs.ts' ? rel[0] : undefined;
}

/**
 * Modules the root itself imports lazily, each a module of the verbs bundle that exports what the
 * module does: run-verb.ts, the resource table, run only when one of its nouns is invoked, a
 * trigger scenario's help (`svc trigger <scenario> --help`), and the active session `svc logout`'s
 * suggestion names.
 */
const ROOT_CHUNKS = {
  './run-verb.js': 'run-verb',
  './resources/table.js': 'resources-table',
  './trigger/scenario-help.js': 'trigger-scenario-help',
  './active-session-ids.js': 'active-session-ids',
};
const ROOT_ENTRY = join(root, 'commands', 'main.ts');
const plainChunks = new Set(Object.values(ROOT_CHUNKS));
for (const path of Object.keys(ROOT_CHUNKS)) replacements.expect(`ROOT_CHUNKS: ${path}`);

// 1. The root. Each verb module a verbs.ts imports lazily is left out and recorded as a chunk.
const chunks = new Map(); // chunk name → verb module source path
/** The verbs and the code they share, in one file (part 2). */
const VERBS_BUNDLE = 'verbs.cjs';
/** Where each module of the verbs bundle is in it (read by bin/compile-cache.js). */
const VERBS_INDEX = 'verbs.index.json';
/**
 * A module of the verbs bundle larger than this is a file of its own, read only by the verbs that
 * use it, since every command reads verbs.cjs: undici's HTTP client with its WebAssembly parser and
 * conf's writer, which a command that neither connects nor writes the store then does not read.
 */
const LARGE_MODULE = 256_000;
/**
 * Leaves each verb module a verbs.ts imports lazily out of the bundle being built, and records it.
 * In the root, the import becomes a load from the verbs bundle (`dist/cli/verbs.cjs`, part 2);
 * within the verbs bundle, a require of the verb's own module there.
 */
const registry = (where) => ({
  name: 'verb-registry',
  setup(b) {
    b.onResolve({ filter: /.*/ }, (args) => {
      if (args.kind !== 'dynamic-import') return undefined;
      const noun = nounOf(args.importer);
      const plain = args.importer === ROOT_ENTRY ? ROOT_CHUNKS[args.path] : undefined;
      if (!noun && !plain) return undefined;
      if (plain) replacements.mark(`ROOT_CHUNKS: ${args.path}`);
      const source = resolve(dirname(args.importer), args.path.replace(/\.js$/, '.ts'));
      // `<noun>.<path of the module under the noun, / as ->`: sandbox.fund, api.graphql-query…
      const name = plain ?? `${noun}.${relative(dirname(args.importer), source).replace(/\.ts$/, '').split(/[\\/]/).join('-')}`;
      chunks.set(name, source);
      return where === 'root' ? { path: name, namespace: 'verb-in-bundle' } : { path: `./${name}.cjs`, external: true };
    });
    b.onLoad({ filter: /.*/, namespace: 'verb-in-bundle' }, (args) => ({
      resolveDir: out,
      loader: 'js',
      contents: `module.exports = require(${JSON.stringify(`./${VERBS_BUNDLE}`)}).load(${JSON.stringify(`./${args.path}.cjs`)});`,
    }));
    b.onResolve({ filter: new RegExp(`^\\./${VERBS_BUNDLE.replace('.', '\\.')}$`) }, (args) => ({ path: args.path, external: true }));
  },
});
const rootBuild = await build({
  ...common,
  entryPoints: { svc: ROOT_ENTRY },
  outdir: out,
  sourcemap: 'linked',
  sourcesContent: false,
  plugins: [registry('root'), lazyModules],
  metafile: true,
});
const rootInputs = Object.keys(rootBuild.metafile.inputs);

// 2. The verbs, in one file whose modules run only when required: dist/cli/verbs.cjs. esbuild
// splits them (as ES modules, the only format it splits) into one module per verb, with its own
// code and `execute` below, and chunks of the code two or more verbs share, so every library and
// every module of src/ is in the package once however many verbs use it. Each module is turned
// into CommonJS and wrapped in a function of the bundle, run on first require: a verb reads one
// file (a file per chunk would cost a read each, some twenty per command) and evaluates only what
// it imports.
const runVerb = join(root, 'commands', 'run-verb.ts');
const plainSources = new Set([...chunks].filter(([name]) => plainChunks.has(name)).map(([, source]) => source));
const verbEntry = {
  name: 'verb-entry',
  setup(b) {
    b.onResolve({ filter: /^verb-entry:/ }, (args) => ({ path: args.path.slice('verb-entry:'.length), namespace: 'verb-entry' }));
    b.onLoad({ filter: /.*/, namespace: 'verb-entry' }, (args) => ({
      resolveDir: root,
      loader: 'js',
      contents:
        args.path === runVerb || plainSources.has(args.path)
          ? `export * from ${JSON.stringify(args.path)};`
          : `import * as verb from ${JSON.stringify(args.path)};
import { runVerb } from ${JSON.stringify(runVerb)};
export const execute = (spec, options, globals, signal, commands) => runVerb(verb, spec, options, globals, signal, commands);`,
    }));
  },
};
/**
 * A Node built-in imported by an ES module becomes a CommonJS module of the bundle that requires
 * it. esbuild's split output is ES modules, whose imports of external modules go to the top of the
 * chunk, so a chunk would require a built-in when it loads even for a module of it that runs only
 * when first required: conf, loaded for `session show` though only a store write runs it, would
 * bring node:crypto, node:assert and node:stream with it. As a module of the bundle, a built-in is
 * required where its importer runs.
 */
const builtinWhereUsed = {
  name: 'builtin-where-used',
  setup(b) {
    b.onResolve({ filter: /^[a-z_]/ }, (args) => {
      if (args.kind !== 'import-statement' || !isBuiltin(args.path)) return undefined;
      return { path: args.path.startsWith('node:') ? args.path : `node:${args.path}`, namespace: 'builtin' };
    });
    b.onLoad({ filter: /.*/, namespace: 'builtin' }, (args) => ({
      loader: 'js',
      contents: `module.exports = require(${JSON.stringify(args.path)});`,
    }));
  },
};
/** The library (package.json "exports"): src/index.ts, sharing the verbs' code. */
const LIBRARY = 'library';
const split = await build({
  ...common,
  format: 'esm',
  splitting: true,
  banner: undefined, // once, at the top of the bundle
  entryPoints: {
    ...Object.fromEntries([...chunks].map(([name, source]) => [name, `verb-entry:${source}`])),
    [LIBRARY]: join(root, 'src', 'index.ts'),
  },
  outdir: out,
  chunkNames: 'chunk-[hash]',
  metafile: true,
  sourcemap: 'inline',
  sourcesContent: false,
  write: false,
  plugins: [verbEntry, registry('verbs'), undiciCore, lazyModules, builtinWhereUsed],
});
const unused = replacements.unused();
if (unused.length > 0) {
  console.error(unusedMessage(unused));
  process.exit(1);
}
// What went into the root, for test/e2e/startup-loads.test.ts (it must hold no verb module and no HTTP
// or crypto library), and how often each replacement applied (test/unit/build-replacements.test.ts).
writeFileSync(
  join(out, 'svc.meta.json'),
  JSON.stringify({ inputs: rootInputs, chunks: Object.fromEntries([...chunks].map(([n, s]) => [n, relative(root, s)])), replacements: replacements.counts() }, null, 1),
);
/** Where esbuild's helpers module defines __toESM (see __svcOnce). */
const TO_ESM = '__toESM=(mod,isNodeMode,target)=>(';
// Each module as CommonJS, with its source map (esbuild carries the inline map of the split
// build through, so it still points into src/ and commands/).
const modules = await Promise.all(
  split.outputFiles.map(async (file) => {
    const { code, map } = await transform(file.text, {
      format: 'cjs',
      loader: 'js',
      target: common.target,
      sourcefile: file.path,
      sourcemap: 'external',
      sourcesContent: false,
      minifySyntax: true,
      minifyWhitespace: true,
    });
    // The module's exports are its namespace object itself (marked as an ES module), not a copy:
    // esbuild's __toCommonJS copies every export into another layer of getters, each module a verb
    // loads. A name of the same length keeps the source map's columns.
    const exported = code.replace(/module\.exports=__toCommonJS\(/, 'module.exports=__svcExports(');
    if (exported.includes('__toCommonJS(')) {
      throw new Error(`.ci/build.mjs: esbuild's __toCommonJS in ${basename(file.path)} no longer has the form __svcExports replaces (.ci/BUILD.md)`);
    }
    // esbuild's __toESM makes a new namespace object (a getter a property) each time a module
    // imports a CommonJS one by default or as a namespace: node:fs's hundred properties for each of
    // the twenty modules that import it. Reassigned at the end of the helpers' module (so no column
    // of its source map moves), it makes each once (__svcOnce) and every importer shares it; and
    // the namespace is an object whose prototype is the module (see EXPORTS_HELPER), not a copy.
    const ended = exported.endsWith('\n') ? exported : `${exported}\n`;
    return {
      id: `./${basename(file.path)}`,
      code: ended.includes(TO_ESM) ? `${ended}__toESM=__svcOnce(__toESM);\n` : ended,
      map: JSON.parse(map),
    };
  }),
);
if (modules.filter((m) => m.code.includes(TO_ESM)).length !== 1) {
  throw new Error(`.ci/build.mjs: esbuild's __toESM is no longer defined once in the form ${TO_ESM} that __svcOnce wraps (.ci/BUILD.md)`);
}
// The bundle: the modules by id, and a require that serves those ids from here and any other
// (node:fs, ./svc.cjs, the prompt library) from Node. A module runs once, on its first require;
// the split build's imports have no cycles, so each is complete when its importer runs. Each
// module starts on a line of its own, where its source map is placed in the bundle's.
const map = sourceMapOf(VERBS_BUNDLE);
// __svcOnce's namespace of a CommonJS module is an object whose prototype is the module, with
// `default` its own property where esbuild's would have one: reading a name finds the module's
// current value, as esbuild's getters do, without a getter and a property made for each of the
// module's names (node:fs's hundred, node:crypto's eighty: 50-60 kB of young heap each, which is
// what sets off a scavenge in a short command). Unlike esbuild's, its names are not its own
// properties: no code here lists a CommonJS namespace's names (Object.keys, spread).
const EXPORTS_HELPER = `function __svcExports(namespace) { return Object.defineProperty(namespace, '__esModule', { value: true }); } function __svcOnce(toESM) { var plain = new WeakMap(), node = new WeakMap(); return function (mod, isNodeMode) { if (mod === null || (typeof mod !== 'object' && typeof mod !== 'function')) return toESM(mod, isNodeMode); var made = isNodeMode ? node : plain, ns = made.get(mod); if (ns === undefined) { ns = Object.create(mod); if (isNodeMode || !mod.__esModule) Object.defineProperty(ns, 'default', { value: mod, enumerable: true }); made.set(mod, ns); } return ns; }; }`;
let text = `${common.banner.js} ${EXPORTS_HELPER}\n`;
/**
 * Where each module's text is in the bundle, and the modules it names: bin/compile-cache.js reads
 * a command's modules alone from it (VERBS_INDEX). `head` ends the banner and helpers every module uses.
 */
const index = { head: text.length, modules: {} };
text += 'var __svcModules = {\n';
let line = 2;
const ascii = (name, code) => {
  // bin/compile-cache.js reads the bundles as latin1, the same text as UTF-8 only while they are
  // ASCII (esbuild escapes any other character, as its default `charset: 'ascii'` asks).
  if (!/^[\x00-\x7f]*$/.test(code)) throw new Error(`${name} is not ASCII: bin/compile-cache.js reads it as latin1`);
  return code;
};
for (const module of modules) {
  if (module.code.length > LARGE_MODULE) {
    // A file of its own, which Node loads when the bundle's require finds no module of that id;
    // its requires of the bundle's modules go through the bundle. It has the banner too: its
    // import.meta.url (the dashboard's files are found from it) is its own file's.
    const file = module.id.slice(2);
    const own = sourceMapOf(file);
    own.add(module.map, 1);
    const wrapped = `${common.banner.js} (function (require) { ${EXPORTS_HELPER}\n${module.code}})(require(${JSON.stringify(`./${VERBS_BUNDLE}`)}).requireFrom(require));\n//# sourceMappingURL=${file}.map\n`;
    writeFileSync(join(out, file), ascii(file, wrapped));
    writeFileSync(join(out, `${file}.map`), own.json());
    continue;
  }
  const start = text.length;
  text += `${JSON.stringify(module.id)}: function (exports, require, module) {\n`;
  map.add(module.map, ++line);
  text += `${module.code}},\n`;
  index.modules[module.id] = [start, text.length, module.code];
  line += module.code.split('\n').length; // the module's lines, then the one closing it
}
text += `};
var __svcLoaded = {};
function __svcRequire(id) {
  var loaded = __svcLoaded[id];
  if (loaded) return loaded.exports;
  var define = __svcModules[id];
  if (define === undefined) return require(id);
  loaded = __svcLoaded[id] = { exports: {} };
  define.call(loaded.exports, loaded.exports, __svcRequire, loaded);
  return loaded.exports;
}
exports.load = __svcRequire;
exports.requireFrom = function (nodeRequire) {
  return function (id) {
    return id in __svcModules ? __svcRequire(id) : nodeRequire(id);
  };
};
//# sourceMappingURL=${VERBS_BUNDLE}.map
`;
ascii('svc.cjs', readFileSync(join(out, 'svc.cjs'), 'utf8'));
writeFileSync(join(out, VERBS_BUNDLE), ascii(VERBS_BUNDLE, text));
// Each module's range and the bundle's modules its code names (a require, or a lazy require in a
// function: a superset of what it loads, so a command's set is never short of one).
// Modules are named by their place in `ids`, so the file stays small to read and parse.
const ids = Object.keys(index.modules);
const place = new Map(ids.map((id, i) => [id, i]));
const ranges = ids.map((id) => {
  const [start, end, code] = index.modules[id];
  const named = new Set([...code.matchAll(/"(\.\/[\w.-]+\.cjs)"/g)].map(([, name]) => place.get(name)));
  return [start, end, [...named].filter((i) => i !== undefined && i !== place.get(id))];
});
writeFileSync(join(out, VERBS_INDEX), JSON.stringify({ size: text.length, head: index.head, ids, modules: ranges }));
writeFileSync(join(out, `${VERBS_BUNDLE}.map`), map.json());

/**
 * One source map made of several, each placed at a line of the file (an index map's sections
 * flattened: Node 20 reads only flat maps). Mappings into esbuild's own helpers, which have no
 * source file, are dropped.
 */
function sourceMapOf(file) {
  const sources = new Map();
  const names = new Map();
  const lines = [];
  const indexIn = (table, value) => {
    if (!table.has(value)) table.set(value, table.size);
    return table.get(value);
  };
  return {
    add(part, firstLine) {
      decode(part.mappings).forEach((segments, i) => {
        lines[firstLine + i] = segments.map((segment) => {
          const source = part.sources[segment[1]];
          if (segment.length === 1 || isAbsolute(source)) return [segment[0]];
          const mapped = [segment[0], indexIn(sources, source), segment[2], segment[3]];
          return segment.length === 5 ? [...mapped, indexIn(names, part.names[segment[4]])] : mapped;
        });
      });
    },
    json: () =>
      JSON.stringify({
        version: 3,
        file,
        sources: [...sources.keys()],
        names: [...names.keys()],
        mappings: encode(Array.from(lines, (segments) => segments ?? [])),
      }),
  };
}

// The library's file: its module in the bundle, with its export names where Node's ES-module import
// of CommonJS finds them (the same annotation esbuild writes).
const libraryExports = Object.values(split.metafile.outputs).find((o) => o.entryPoint === join('src', 'index.ts')).exports;
writeFileSync(
  join(out, `${LIBRARY}.cjs`),
  `module.exports = require(${JSON.stringify(`./${VERBS_BUNDLE}`)}).load(${JSON.stringify(`./${LIBRARY}.cjs`)});
0 && (module.exports = { ${libraryExports.join(', ')} });
`,
);

// 3. undici's parser without SIMD, for the stub in LAZY.
await build({
  ...common,
  entryPoints: [join(root, 'node_modules', 'undici', 'lib', 'llhttp', 'llhttp-wasm.js')],
  outfile: join(out, LLHTTP_FALLBACK),
  external: [],
});

// 4. The argv scanner the root uses, with the global flags that take a value as the root declares
// them, in a file bin/svc.js reads in a fraction of a millisecond (loading the root for them would
// cost the startup it saves).
const { GLOBAL_VALUE_FLAGS } = createRequire(import.meta.url)(join(out, 'svc.cjs'));
await build({
  ...common,
  banner: undefined,
  entryPoints: { 'argv-words': join(root, 'commands', 'argv-words.ts') },
  outdir: out,
  footer: { js: `module.exports.GLOBAL_VALUE_FLAGS = ${JSON.stringify(GLOBAL_VALUE_FLAGS)};` },
});

// 5. The emulator dashboard's front end (src/emulator/dashboard/ui/, plain files the emulator
// serves): beside the bundle as dashboard-ui/, and beside tsc's output of its server for the
// benches and tests that load dist/src (src/emulator/dashboard/assets.ts looks in both places).
const dashboardUi = join(root, 'src', 'emulator', 'dashboard', 'ui');
cpSync(dashboardUi, join(out, 'dashboard-ui'), { recursive: true });
if (!process.argv.includes('--no-tsc')) cpSync(dashboardUi, join(root, 'dist', 'src', 'emulator', 'dashboard', 'ui'), { recursive: true });
// The emulator's request validators, one module an operation, read when its first request arrives
// (src/emulator/kernel/request-check/load.ts looks beside the bundle for request-validators/).
cpSync(join(root, 'src', 'emulator', 'kernel', 'request-check', 'generated'), join(out, 'request-validators'), {
  recursive: true,
  filter: (f) => !/\.(d\.ts|js)$/.test(f),
});

// 6. The root's help (`svc --help`) as the built CLI prints it to a pipe or file: it depends on
// nothing but a terminal's width, so bin/svc.js prints this file instead of building the program for
// it (a third of the run). Written after the run, which must not find an older one.
const rootHelp = execFileSync(process.execPath, [join(root, 'bin', 'svc.js'), '--help'], {
  cwd: root,
  encoding: 'utf8',
  env: { ...process.env, NO_COLOR: '1' },
});
if (!rootHelp.startsWith('Usage: svc ')) throw new Error(`svc --help printed no usage: ${rootHelp.slice(0, 200)}`);
writeFileSync(join(out, ROOT_HELP), rootHelp);
