/** The terminal side of `svc trigger`: the scenario list and the summary of one run. */
import { cut, pad, textWidth } from '../table.js';
import type { UI } from '../ui.js';
import { SCENARIOS, type Scenario } from '../../src/trigger/catalog.js';
import { isRunnable, type ScenarioInterruptedError, type TriggerReport } from '../../src/trigger/run.js';

const text = (v: unknown): string =>
  Array.isArray(v) ? v.map(text).join(',') : v !== null && typeof v === 'object' ? JSON.stringify(v) : String(v);
const pairs = (o: Record<string, unknown>) =>
  Object.entries(o)
    .map(([k, v]) => `${k} ${text(v)}`)
    .join(', ');

export function printList(ui: UI): void {
  const listed = SCENARIOS.map((s) => ({
    name: s.name,
    area: s.area,
    magic: s.magic,
    expect: s.expect,
    runnable: isRunnable(s),
  }));
  ui.result(listed, () => {
    const width = Math.max(...SCENARIOS.map((s) => textWidth(s.name)));
    for (const s of listed) {
      const mark = s.runnable ? ' ' : ui.c.dim('·');
      const magic = `${s.magic.field}=${s.magic.value}`;
      const expect = `→ ${pairs(s.expect)}`;
      const line = `${pad(s.name, width)}  ${magic}  ${expect}`;
      const paint = (text: string) => text.replace(magic, (m) => ui.c.cyan(m));
      // Off a terminal (columns 0) one line each, for grep. On a narrow one the magic value and the
      // outcome go on indented lines of their own, so the value a user copies is never cut; only a
      // line still wider than the terminal is shortened with …, never wrapped mid-word by the terminal.
      if (ui.columns <= 0 || textWidth(line) + 2 <= ui.columns) {
        ui.out(`${mark} ${paint(line)}`);
        continue;
      }
      const head = `${s.name}  ${magic}`;
      const lines = textWidth(head) + 2 <= ui.columns ? [head] : [s.name, `  ${magic}`];
      lines.push(`  ${expect}`);
      lines.forEach((text, i) => ui.out(`${i === 0 ? mark : ' '} ${paint(cut(text, ui.columns - 2))}`));
    }
    if (listed.some((s) => !s.runnable)) ui.info(ui.ce.dim('· not runnable by this svc yet'));
  });
}

/** Expected fields the service answered otherwise (or not at all). */
function differences(scenario: Scenario, report: TriggerReport): string[] {
  return Object.entries(scenario.expect)
    .filter(([k, v]) => String(report.observed[k]) !== v)
    .map(
      ([k, v]) =>
        `${k} ${report.observed[k] === undefined ? 'absent' : String(report.observed[k])} (the spec says ${v})`,
    );
}

export function printReport(ui: UI, scenario: Scenario, report: TriggerReport, waited: boolean): void {
  ui.out(`${report.scenario}: ${report.magic.field} = ${report.magic.value}`);
  for (const [role, id] of Object.entries(report.resources))
    ui.out(`  ${role.padEnd(20)} ${id}${report.reused.includes(role) ? ' (yours, reused)' : ''}`);
  ui.out(`  observed             ${pairs(report.observed)}`);
  if (report.events.length > 0) ui.out(`  events               ${report.events.join(', ')}`);
  const diff = differences(scenario, report);
  if (diff.length === 0) ui.success(`As the spec's table says: ${scenario.spec}.`);
  else if (scenario.delayMs > 0 && !waited)
    ui.hint(`The outcome comes after about ${Math.round(scenario.delayMs / 1000)} s: add --wait to follow it.`);
  else ui.warn(`The service answered differently from the spec: ${diff.join('; ')}.`);
}

/**
 * What an interrupted run had made, so the user can inspect or clean it up: JSON on stdout under
 * --json (the report's resources and reused), else lines on stderr beside "Interrupted.".
 */
export function printInterrupted(ui: UI, scenario: Scenario, stopped: ScenarioInterruptedError): void {
  const { resources, reused } = stopped;
  ui.result({ scenario: scenario.name, interrupted: true, resources, reused }, () => {
    const roles = Object.keys(resources);
    if (roles.length === 0) return ui.info(`${scenario.name} was stopped before it made anything.`);
    ui.info(`${scenario.name} was stopped; what it had made or used so far:`);
    for (const role of roles)
      ui.info(`  ${role.padEnd(20)} ${resources[role]}${reused.includes(role) ? ' (yours, reused)' : ''}`);
  });
}
