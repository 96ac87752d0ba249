// The build (`npm run build`, and `prepare`, so `npm ci` is the only setup step):
// 1. tsc emits dist/src and dist/commands: the library (package.json "main") with its types.
// 2. esbuild bundles the CLI into dist/cli/: the command root (svc.cjs: commands/program.ts with
//    commander and the verb specs) and one file per verb (verbs/<noun>.<verb>.cjs), loaded only
//    when that verb runs. A command then reads two files instead of hundreds.
//
// Verbs are found from the registry, not from a list here: every `() => import('./x.js')` in a
// `commands/<noun>/verbs.ts` that the root imports becomes the chunk `verbs/<noun>.<x>.cjs`, so a
// new noun or verb needs no edit to this file (README "Performance").
//
// CommonJS output because it starts fastest on Node 20 and 22: no ES-module loader, and require()
// of one file. `supported: { 'dynamic-import': false }` turns the root's import() of a chunk into
// require(). Usage: node .ci/build.mjs [--no-tsc]
import { execFileSync } from 'node:child_process';
import { rmSync, writeFileSync } from 'node:fs';
import { dirname, join, relative, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { build } from 'esbuild';

const root = resolve(dirname(fileURLToPath(import.meta.url)), '..');
const out = join(root, 'dist', 'cli');

if (!process.argv.includes('--no-tsc')) {
  execFileSync(process.execPath, [join(root, 'node_modules', 'typescript', 'bin', 'tsc'), '-p', 'tsconfig.json'], {
    cwd: root,
    stdio: 'inherit',
  });
}
rmSync(out, { recursive: true, force: true });

/** undici's parser without SIMD, required at run time (external to the bundles, see LAZY). */
const LLHTTP_FALLBACK = 'undici/lib/llhttp/llhttp-wasm.js';

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
    b.onResolve({ filter: /^undici$/ }, () => ({ path: join(root, '.ci', 'undici-core.cjs') }));
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
  // commander runs executable subcommands with child_process, which svc never declares; loading it
  // (with net, dgram and streams) is most of what `svc --help` costs beyond commander itself.
  {
    importer: /commander[\\/]lib[\\/]command\.js$/,
    path: 'node:child_process',
    stub: (real) => `module.exports = new Proxy({}, { get: (_, key) => require(${real})[key] });`,
  },
  // undici's HTTP/2 client (module.exports = connectH2) requires node:http2, and with it tls and
  // crypto (about 9 ms); svc speaks HTTP/1.1.
  {
    importer: /undici[\\/]lib[\\/]dispatcher[\\/]client\.js$/,
    path: './client-h2.js',
    stub: (real) => `let m; module.exports = function (...a) { return (m ??= require(${real})).apply(this, a); };`,
  },
  // conf itself: the store reads its files directly and needs conf only to write one.
  {
    importer: /src[\\/]store[\\/][^\\/]+\.ts$/,
    path: 'conf',
    stub: (real) => `module.exports = function Conf(...a) { return new (require(${real}).default)(...a); };`,
  },
  // Not lazy but replaced: atomically (conf's writer) registers its temp-file cleanup with when-exit,
  // which on SIGINT/SIGTERM runs it and sends the signal to the process again. svc handles those
  // signals itself (commands/program.ts: the first stops the command cleanly, a second one exits at
  // once), so that echo made one Ctrl-C or SIGTERM an immediate exit, cutting off `emulator start`
  // saving its --state. The cleanup now runs at exit, which every clean stop reaches.
  {
    importer: /atomically[\\/]dist[\\/]utils[\\/]temp\.js$/,
    path: 'when-exit',
    stub: () =>
      "const callbacks = new Set(); process.once('exit', () => { for (const callback of callbacks) callback(); }); module.exports = (callback) => { callbacks.add(callback); return () => callbacks.delete(callback); };",
  },
  // undici's llhttp without SIMD, a 72 kB string: only a fallback for when the SIMD build does not
  // compile, so it is read from node_modules (undici is svc's own dependency) in that case alone.
  {
    importer: /undici[\\/]lib[\\/]dispatcher[\\/]client-h1\.js$/,
    path: '../llhttp/llhttp-wasm.js',
    stub: () => `module.exports = require(${JSON.stringify(LLHTTP_FALLBACK)});`,
  },
  // Left out: conf's schema validation (ajv, ajv-formats) and migrations (semver), about 260 kB that
  // every bundle writing the store would read on each run. The store passes conf neither a schema
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
      const filter = new RegExp(`^${lazy.path.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')}$`);
      b.onResolve({ filter }, async (args) => {
        if (args.namespace !== 'file' || !lazy.importer.test(args.importer)) return undefined;
        const real = await b.resolve(args.path, { resolveDir: args.resolveDir, kind: args.kind });
        if (real.errors.length > 0) return { errors: real.errors };
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

// 1. The root. Each verb module a verbs.ts imports lazily is left out and recorded as a chunk.
const chunks = new Map(); // chunk name → verb module source path
/**
 * Leaves each verb module a verbs.ts imports lazily out of the bundle being built, as a require of
 * its own chunk (`dir` is where the chunks are, relative to that bundle), and records it. A verb
 * that imports the command root itself (`svc completion` reads the command tree) gets the root's
 * specs, not a second copy of every verb.
 */
const registry = (dir) => ({
  name: 'verb-registry',
  setup(b) {
    b.onResolve({ filter: /.*/ }, (args) => {
      if (args.kind !== 'dynamic-import') return undefined;
      const noun = nounOf(args.importer);
      const isRunVerb = args.importer === join(root, 'commands', 'program.ts') && args.path === './run-verb.js';
      if (!noun && !isRunVerb) return undefined;
      const source = resolve(dirname(args.importer), args.path.replace(/\.js$/, '.ts'));
      // `<noun>.<path of the module under the noun, / as ->`: sandbox.fund, api.graphql-query…
      const name = isRunVerb ? 'run-verb' : `${noun}.${relative(dirname(args.importer), source).replace(/\.ts$/, '').split(/[\\/]/).join('-')}`;
      chunks.set(name, source);
      return { path: `${dir}${name}.cjs`, external: true };
    });
  },
});
const rootBuild = await build({
  ...common,
  entryPoints: { svc: join(root, 'commands', 'program.ts') },
  outdir: out,
  plugins: [registry('./verbs/'), lazyModules],
  metafile: true,
});
// What went into the root, for test/unit/cli-bundle.test.ts: it must hold no verb module and no HTTP or crypto library.
writeFileSync(join(out, 'svc.meta.json'), JSON.stringify({ inputs: Object.keys(rootBuild.metafile.inputs), chunks: Object.fromEntries([...chunks].map(([n, s]) => [n, relative(root, s)])) }, null, 1));

// 2. One file per verb, self-contained: the verb, its share of src/ and libraries, and its own copy
// of run-verb.ts, so the errors it throws are rendered by the code that defined their classes.
const runVerb = join(root, 'commands', 'run-verb.ts');
const verbEntry = {
  name: 'verb-entry',
  setup(b) {
    b.onResolve({ filter: /^verb-entry:/ }, (args) => ({ path: args.path.slice('verb-entry:'.length), namespace: 'verb-entry' }));
    b.onLoad({ filter: /.*/, namespace: 'verb-entry' }, (args) => ({
      resolveDir: root,
      loader: 'js',
      contents:
        args.path === runVerb
          ? `export { runVerb } from ${JSON.stringify(runVerb)};`
          : `import * as verb from ${JSON.stringify(args.path)};
import { runVerb } from ${JSON.stringify(runVerb)};
export const execute = (options, globals, signal) => runVerb(verb, options, globals, signal);`,
    }));
  },
};
await build({
  ...common,
  entryPoints: Object.fromEntries([...chunks].map(([name, source]) => [name, `verb-entry:${source}`])),
  outdir: join(out, 'verbs'),
  plugins: [verbEntry, registry('./'), undiciCore, lazyModules],
});
