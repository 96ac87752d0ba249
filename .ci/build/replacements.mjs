// The build's ledger of replacements: every place .ci/build.mjs replaces or stubs a file of a
// dependency (or one of ours) names itself with `expect` and calls `mark` each time it applies. A
// dependency that moves or renames the file would otherwise leave the replacement silently unused:
// the bundle would still build and pass, only slower, larger or (for a behavioural stub) different.
// `unused()` lists the replacements that matched nothing; the build fails naming them.

export function replacementLedger() {
  const applied = new Map(); // replacement name → times it applied
  return {
    expect: (name) => applied.set(name, applied.get(name) ?? 0),
    mark: (name) => {
      if (!applied.has(name)) throw new Error(`.ci/build.mjs: replacement "${name}" applied but was never expected`);
      applied.set(name, applied.get(name) + 1);
    },
    unused: () => [...applied].filter(([, times]) => times === 0).map(([name]) => name),
    counts: () => Object.fromEntries(applied),
  };
}

/** The message the build fails with when `unused` lists any replacement. */
export function unusedMessage(unused) {
  const one = unused.length === 1;
  return [
    `.ci/build.mjs: ${one ? 'this replacement' : `these ${unused.length} replacements`} matched nothing: the file ${one ? 'it replaces' : 'they replace'} moved or changed.`,
    ...unused.map((name) => `  - ${name}`),
    `Update ${one ? 'it' : 'them'} to the dependency's new layout, or delete ${one ? 'it' : 'them'} if no longer needed (.ci/BUILD.md).`,
  ].join('\n');
}
