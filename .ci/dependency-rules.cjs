// The layers, checked by dependency-cruiser (`npm run deps`, run by .ci/run). Type-only imports
// are erased at build time, so they never make a runtime cycle; every other import counts,
// including a lazy `import()`. .ci/dependency-known-violations.json lists the emulator areas'
// imports of another area's inner files that predate the feature-through-index rule: each one
// moved behind that area's index.ts is removed from it (regenerate it with
// `npx depcruise --config .ci/dependency-rules.cjs --output-type baseline bin commands src`);
// a new one fails the check.
/** @type {import('dependency-cruiser').IConfiguration} */
module.exports = {
  forbidden: [
    {
      name: 'no-runtime-cycle',
      comment: 'A module must not reach itself through imports that run (type-only ones are erased).',
      severity: 'error',
      from: {},
      to: { circular: true, dependencyTypesNot: ['type-only'], viaOnly: { dependencyTypesNot: ['type-only'] } },
    },
    {
      name: 'src-not-commands',
      comment: 'src/ is the library: it never imports the CLI surface (commands/).',
      severity: 'error',
      from: { path: '^src/' },
      to: { path: '^commands/' },
    },
    {
      name: 'emulator-not-client',
      comment:
        'The emulator plays the service: it never imports the client (src/http, src/auth, src/signing, src/store, src/webhook).',
      severity: 'error',
      from: { path: '^src/emulator/' },
      to: { path: '^src/(http|auth|signing|store|webhook)/' },
    },
    {
      name: 'feature-through-index',
      comment: "An emulator area imports another area only through that area's index.ts.",
      severity: 'error',
      from: { path: '^src/emulator/features/([^/]+)/' },
      to: {
        path: '^src/emulator/features/[^/]+/',
        pathNot: ['^src/emulator/features/$1/', '^src/emulator/features/[^/]+/index\\.ts$'],
      },
    },
  ],
  options: {
    doNotFollow: { path: 'node_modules' },
    exclude: { path: '^(node_modules|dist)/' },
    tsConfig: { fileName: 'tsconfig.json' },
    tsPreCompilationDeps: true,
  },
};
