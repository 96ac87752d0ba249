/**
 * Text laid out in columns for a terminal: widths are what the terminal shows (string-width: a CJK
 * character or an emoji takes two columns, colour codes none), not string lengths, so a coloured or
 * wide cell does not push the columns after it out of line.
 */
import stringWidth from 'string-width';
import type { UI } from './ui.js';

/** The columns `text` takes on a terminal. */
export const textWidth = (text: string): number => stringWidth(text);

/** `text` padded with spaces to `width` columns (never shortened). */
export function pad(text: string, width: number): string {
  return text + ' '.repeat(Math.max(0, width - textWidth(text)));
}

const segmenter = new Intl.Segmenter();
// biome-ignore lint/suspicious/noControlCharactersInRegex: a colour code starts with ESC.
const ANSI_AT_START = /^\u001b\[[0-9;]*m/;

/**
 * `text` shortened to at most `width` columns, its end marked with …; whole characters only (a wide
 * one that would straddle the edge is left out). Colour codes are kept and cost nothing.
 */
export function cut(text: string, width: number): string {
  if (textWidth(text) <= width) return text;
  let out = '';
  let used = 0;
  let rest = text;
  while (rest.length > 0) {
    const code = ANSI_AT_START.exec(rest);
    if (code) {
      out += code[0];
      rest = rest.slice(code[0].length);
      continue;
    }
    const { segment } = segmenter.segment(rest)[Symbol.iterator]().next().value!;
    const w = textWidth(segment);
    if (used + w > width - 1) break;
    out += segment;
    used += w;
    rest = rest.slice(segment.length);
  }
  return `${out}…${text.includes('\u001b[') ? '\u001b[0m' : ''}`;
}

/**
 * Rows as lines, each column but the last padded to its widest cell, columns two spaces apart
 * (key-value listings, scenario lists). Nothing is shortened.
 */
export function alignColumns(rows: readonly (readonly string[])[]): string[] {
  const widths: number[] = [];
  for (const row of rows) row.forEach((cell, i) => (widths[i] = Math.max(widths[i] ?? 0, textWidth(cell))));
  return rows.map((row) => row.map((cell, i) => (i === row.length - 1 ? cell : pad(cell, widths[i]!))).join('  '));
}

/** The narrowest a shortened column gets: enough to recognise a nickname or a type. */
const MIN_COLUMN = 6;

/**
 * Left-aligned columns, widths from the content; the header is dimmed. On a terminal narrower than
 * the table, the widest columns not in `whole` are shortened (with …) until it fits; columns in
 * `whole` (ids a user copies) never are. When even that cannot fit, each row becomes a block of
 * `HEADER  value` lines. Off a terminal (ui.columns 0) nothing is shortened.
 */
export function renderTable(ui: UI, header: string[], rows: string[][], whole: number[] = []): void {
  const widths = header.map((h, i) => Math.max(textWidth(h), ...rows.map((r) => textWidth(r[i] ?? ''))));
  const total = () => widths.reduce((a, b) => a + b, 0) + 2 * (widths.length - 1);
  const columns = ui.columns;
  while (columns > 0 && total() > columns) {
    let widest = -1;
    widths.forEach((w, i) => {
      if (!whole.includes(i) && w > MIN_COLUMN && (widest === -1 || w > widths[widest]!)) widest = i;
    });
    if (widest === -1) break;
    widths[widest] = Math.max(MIN_COLUMN, widths[widest]! - (total() - columns));
  }
  if (columns > 0 && total() > columns) {
    const label = Math.max(...header.map(textWidth));
    rows.forEach((row, r) => {
      if (r > 0) ui.out('');
      header.forEach((h, i) => {
        if (row[i]) ui.out(`${ui.c.dim(pad(h || ' ', label))}  ${row[i]}`);
      });
    });
    return;
  }
  const line = (cells: string[]) =>
    cells.map((c, i) => (i === cells.length - 1 ? cut(c, widths[i]!) : pad(cut(c, widths[i]!), widths[i]!))).join('  ');
  ui.out(ui.c.dim(line(header)));
  for (const row of rows) ui.out(line(row));
}
