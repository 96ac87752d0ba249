/** Terminal columns (commands/table.ts): widths as a terminal shows them, with wide and coloured text. */
import { describe, expect, it } from 'vitest';
import { alignColumns, cut, pad, renderTable, textWidth } from '../../commands/table.js';
import { colors } from '../../commands/colors.js';
import type { UI } from '../../commands/ui.js';

const RED = '\u001b[31m';
const RESET = '\u001b[39m';
const strip = (text: string) => text.replaceAll(RED, '').replaceAll(RESET, '').replaceAll('\u001b[0m', '');

function fakeUI(columns: number): { ui: UI; lines: string[] } {
  const lines: string[] = [];
  const ui = { columns, c: colors(false), out: (line: string) => lines.push(line) } as unknown as UI;
  return { ui, lines };
}

describe('textWidth and pad', () => {
  it('counts wide characters twice and colour codes not at all', () => {
    expect(textWidth('abc')).toBe(3);
    expect(textWidth('日本')).toBe(4);
    expect(textWidth('👍')).toBe(2);
    expect(textWidth(`${RED}abc${RESET}`)).toBe(3);
    expect(textWidth('e\u0301')).toBe(1); // e + combining acute
  });

  it('pads to terminal columns, not string length', () => {
    expect(pad('日本', 6)).toBe('日本  ');
    expect(pad(`${RED}ab${RESET}`, 4)).toBe(`${RED}ab${RESET}  `);
    expect(pad('toolong', 3)).toBe('toolong');
  });
});

describe('cut', () => {
  it('leaves text that fits alone', () => {
    expect(cut('abc', 3)).toBe('abc');
    expect(cut('日本', 4)).toBe('日本');
  });

  it('shortens to the width with … and never splits a wide character', () => {
    expect(cut('abcdef', 4)).toBe('abc…');
    expect(cut('日本語テキスト', 6)).toBe('日本…'); // 4 + 1; a third wide character would make 7
    expect(textWidth(cut('日本語テキスト', 6))).toBeLessThanOrEqual(6);
    expect(cut('abc', 1)).toBe('…');
    expect(cut('abc', 0)).toBe('…');
  });

  it('keeps colour codes, which cost no width, and closes them', () => {
    const cutText = cut(`${RED}abcdef${RESET}`, 4);
    expect(strip(cutText)).toBe('abc…');
    expect(cutText.startsWith(RED)).toBe(true);
    expect(cutText.endsWith('\u001b[0m')).toBe(true);
  });

  it('keeps a grapheme cluster whole', () => {
    expect(cut('👍🏽👍🏽👍🏽', 5)).toBe('👍🏽👍🏽…');
  });
});

describe('alignColumns', () => {
  it('lines up the column after wide and coloured cells', () => {
    const lines = alignColumns([
      ['日本', 'x'],
      [`${RED}ab${RESET}`, 'y'],
      ['abcde', 'z'],
    ]);
    const starts = lines.map((l) => textWidth(strip(l).slice(0, -1)));
    expect(starts).toEqual([7, 7, 7]);
    expect(lines[2]).toBe('abcde  z');
  });
});

describe('renderTable', () => {
  it('aligns columns by terminal width', () => {
    const { ui, lines } = fakeUI(0);
    renderTable(
      ui,
      ['NAME', 'ID'],
      [
        ['日本語', 'a'],
        ['x', 'b'],
      ],
    );
    expect(lines).toEqual(['NAME    ID', '日本語  a', 'x       b']);
  });

  it('shortens the widest column that may be cut to fit a narrow terminal, never an id column', () => {
    const { ui, lines } = fakeUI(20);
    renderTable(ui, ['NICKNAME', 'ID'], [['日本語のニックネーム', 'Session:1234']], [1]);
    for (const line of lines) expect(textWidth(line)).toBeLessThanOrEqual(20);
    expect(lines[1]).toContain('Session:1234');
    expect(lines[1]).toContain('…');
  });

  it('falls back to blocks when even shortened columns cannot fit', () => {
    const { ui, lines } = fakeUI(10);
    renderTable(ui, ['ID', 'OTHER'], [['Session:123456789', 'Account:123456789']], [0, 1]);
    expect(lines).toEqual(['ID     Session:123456789', 'OTHER  Account:123456789']);
  });
});
