import { describe, expect, it } from 'vitest';
import { colors } from '../../commands/colors.js';

describe('colors', () => {
  it('returns text unchanged, through any chain of styles, when colour is off', () => {
    const c = colors(false);
    expect(c.bold.cyan('step')).toBe('step');
    expect(c.dim(`Hint: ${42}`)).toBe('Hint: 42');
    expect(c.green.bold.underline('a', 'b')).toBe('a b');
  });

  it('styles with ANSI codes when colour is on', () => {
    expect(colors(true).red('Error:')).toBe('\u001b[31mError:\u001b[39m');
  });
});
