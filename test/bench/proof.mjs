// Every bench proves the build does the work before it times it: a figure from a build that skips
// the work (a verifier that accepts or rejects everything, an emulator that takes any stamp, money
// that never moves) would look like a speed-up. A failed proof ends the bench with no figure.

export class ProofFailed extends Error {}

/** Throws ProofFailed (what the build failed to do) unless ok. */
export function prove(ok, what) {
  if (!ok) throw new ProofFailed(what);
}

/** Runs a bench's main: on a failed proof, says so on stderr and exits 3 without printing any figure. */
export async function provedBench(main) {
  try {
    await main();
  } catch (error) {
    if (!(error instanceof ProofFailed)) throw error;
    console.error(`refusing to report a figure: the build under test failed a proof: ${error.message}`);
    process.exit(3);
  }
}
