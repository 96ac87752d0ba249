/**
 * Figures of the chaos tests: printed at the end of each file, and appended as JSON lines to
 * $SVC_CHAOS_REPORT when set (`npm run chaos` collects them into one table).
 */
import { appendFileSync } from 'node:fs';

export interface Figure {
  suite: string;
  attack: string;
  tried: number;
  survived: number;
  lost: number;
  /** Anything else worth reporting (RSS, timings). */
  detail?: string;
}

/** Large under `npm run chaos` (SVC_CHAOS=1), CI-size otherwise. */
export const LARGE = process.env.SVC_CHAOS === '1';

const figures: Figure[] = [];

export function report(figure: Figure): void {
  figures.push(figure);
  if (process.env.SVC_CHAOS_REPORT) appendFileSync(process.env.SVC_CHAOS_REPORT, JSON.stringify(figure) + '\n');
}

export function printFigures(): void {
  const lines = figures.map(
    (f) =>
      `  ${f.suite.padEnd(10)} ${f.attack.padEnd(78)} tried ${String(f.tried).padStart(6)}  survived ${String(f.survived).padStart(6)}  lost ${String(f.lost).padStart(4)}${f.detail ? `  ${f.detail}` : ''}`,
  );
  if (lines.length) console.log(lines.join('\n'));
}
