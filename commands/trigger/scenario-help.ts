/**
 * `svc trigger <scenario> --help`: after the command's help, what that scenario sends and expects,
 * which of your resources it can reuse, and every path `--set` may change there with its type, so a
 * user need not guess them from the refusal of a wrong one. Loaded only for that help.
 */
import { findScenario } from '../../src/trigger/catalog.js';
import { RECIPE_INPUTS, magicPath, type ResourceOption } from '../../src/trigger/input-rules.js';
import { syntaxOf } from '../input-syntax.js';
import { alignColumns } from '../table.js';
import { trigger } from './verbs.js';

const KIND_TEXT = {
  string: 'text',
  integer: 'integer',
  date: 'date YYYY-MM-DD',
  country: 'two-letter country code',
  amount: 'amount in the smallest unit',
} as const;

export function scenarioHelp(name: string): string | undefined {
  const scenario = findScenario(name);
  if (!scenario) return undefined;
  const inputs = RECIPE_INPUTS[scenario.recipe];
  const magic = magicPath(scenario);
  const expect = Object.entries(scenario.expect)
    .map(([k, v]) => `${k} ${v}`)
    .join(', ');
  const delay = scenario.delayMs > 0 ? ` after about ${Math.round(scenario.delayMs / 1000)} s (--wait follows it)` : '';
  const reuse = (Object.keys(inputs.reuse) as ResourceOption[]).map((o) => syntaxOf(o, trigger));
  const paths = Object.entries(inputs.set);
  const lines = [
    '',
    `Scenario ${scenario.name}: sends ${scenario.magic.field} = ${scenario.magic.value}; the spec: ${scenario.spec}.`,
    `  expects      ${expect}${delay}`,
    `  reuses       ${reuse.length > 0 ? reuse.join(', ') : 'none of yours (it makes what it needs)'}`,
    paths.length > 0
      ? '  --set paths (path=value):'
      : '  --set paths: none (this scenario sends nothing you can change)',
    ...alignColumns(
      paths.map(([path, s]) => [
        path,
        `${KIND_TEXT[s.kind]}${path === magic ? ' (carries the magic value: keep its ending)' : s.guard ? ' (checked against the magic row)' : ''}`,
      ]),
    ).map((line) => `    ${line}`),
  ];
  return lines.join('\n');
}
