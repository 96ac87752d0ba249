/**
 * Human renderings shared by the otp and session commands: "expires in", a session summary and a
 * plain-text table. Kept free of colour decisions except through the UI's chalk instance.
 */
import type { UI } from '../ui.js';

/** "14m 05s", "2h 03m", or "expired 3m ago": relative times read faster than ISO stamps. */
export function expiresIn(expiresAt: string, now: number): string {
  const ms = Date.parse(expiresAt) - now;
  const text = duration(Math.abs(ms));
  return ms > 0 ? text : `expired ${text} ago`;
}

function duration(ms: number): string {
  const s = Math.floor(ms / 1000);
  if (s < 60) return `${s}s`;
  const m = Math.floor(s / 60);
  if (m < 60) return `${m}m ${String(s % 60).padStart(2, '0')}s`;
  const h = Math.floor(m / 60);
  if (h < 48) return `${h}h ${String(m % 60).padStart(2, '0')}m`;
  return `${Math.floor(h / 24)}d`;
}

export interface SessionLike {
  id: string;
  accountId: string;
  type: string;
  nickname: string;
  expiresAt: string;
}

/** The stdout summary after a login or refresh: what a user needs to continue. */
export function printSessionSummary(ui: UI, session: SessionLike, now: number): void {
  ui.out(`Session:    ${session.id}`);
  ui.out(`Account:    ${session.accountId}`);
  ui.out(`Credential: ${session.type} ${session.nickname}`);
  ui.out(`Expires in: ${expiresIn(session.expiresAt, now)} (${session.expiresAt})`);
}

/** The narrowest a shortened column gets: enough to recognise a nickname or a type. */
const MIN_COLUMN = 6;

const cut = (text: string, width: number) =>
  text.length <= width ? text : `${text.slice(0, Math.max(0, width - 1))}…`;

/**
 * Left-aligned columns, widths from the content; the header is dimmed. On a terminal narrower than
 * the table, the widest columns not in `whole` are shortened (with …) until it fits; columns in
 * `whole` (ids a user copies) never are. When even that cannot fit, each row becomes a block of
 * `HEADER  value` lines. Off a terminal (ui.columns 0) nothing is shortened.
 */
export function renderTable(ui: UI, header: string[], rows: string[][], whole: number[] = []): void {
  const widths = header.map((h, i) => Math.max(h.length, ...rows.map((r) => (r[i] ?? '').length)));
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
    const label = Math.max(...header.map((h) => h.length));
    rows.forEach((row, r) => {
      if (r > 0) ui.out('');
      header.forEach((h, i) => {
        if (row[i]) ui.out(`${ui.c.dim((h || ' ').padEnd(label))}  ${row[i]}`);
      });
    });
    return;
  }
  const line = (cells: string[]) =>
    cells
      .map((c, i) => (i === cells.length - 1 ? cut(c, widths[i]!) : cut(c, widths[i]!).padEnd(widths[i]!)))
      .join('  ');
  ui.out(ui.c.dim(line(header)));
  for (const row of rows) ui.out(line(row));
}
