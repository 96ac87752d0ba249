/**
 * src/index.ts re-exports the core (crypto, http, signing, store) as the library's public API, so
 * every name exported there must carry a doc comment: editors show it, and it is the only manual a
 * library user gets. Checked with the TypeScript compiler, which resolves re-exports to their source.
 */
import ts from 'typescript';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';

const ROOT = fileURLToPath(new URL('../../..', import.meta.url));
const MODULES = ['crypto', 'http', 'signing', 'store'];

function exportsAndDocs(): { checked: string[]; missing: string[] } {
  const files = MODULES.map((m) => `${ROOT}src/${m}/index.ts`);
  const program = ts.createProgram(files, {
    module: ts.ModuleKind.NodeNext,
    moduleResolution: ts.ModuleResolutionKind.NodeNext,
    strict: true,
    noEmit: true,
    types: ['node'],
  });
  const checker = program.getTypeChecker();
  const checked: string[] = [];
  const missing: string[] = [];
  for (const [i, file] of files.entries()) {
    const moduleSymbol = checker.getSymbolAtLocation(program.getSourceFile(file)!)!;
    for (const exported of checker.getExportsOfModule(moduleSymbol)) {
      checked.push(exported.name);
      const symbol = exported.flags & ts.SymbolFlags.Alias ? checker.getAliasedSymbol(exported) : exported;
      if (ts.displayPartsToString(symbol.getDocumentationComment(checker)).trim() === '')
        missing.push(`${MODULES[i]}: ${exported.name}`);
    }
  }
  return { checked, missing };
}

describe('public API of the core', () => {
  it('has a doc comment on every export', () => {
    const { checked, missing } = exportsAndDocs();
    expect(checked).toEqual(
      expect.arrayContaining([
        'createStamp',
        'verifyOtpTargetBundle',
        'createClient',
        'signedRequest',
        'openStore',
        'Profile',
      ]),
    );
    expect(missing).toEqual([]);
  });
});
