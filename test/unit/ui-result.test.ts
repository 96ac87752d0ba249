/** ui.result, the one way a command prints its result: the value as JSON under --json (through --jq), else text. */
import { describe, expect, it } from 'vitest';
import { fakeDeps } from '../helpers/fake-deps.js';

describe('ui.result', () => {
  const value = { id: 'Session:1', revoked: true };

  it('prints the text without --json', () => {
    const deps = fakeDeps();
    deps.ui.result(value, (v) => deps.ui.out(`Revoked ${v.id}`));
    expect(deps.stdout()).toBe('Revoked Session:1\n');
  });

  it('prints only the value as JSON under --json, and never the text', () => {
    const deps = fakeDeps({ globals: { json: true } });
    deps.ui.result(value, () => deps.ui.out('text'));
    expect(JSON.parse(deps.stdout())).toEqual(value);
  });

  it('filters the value with --jq', () => {
    const deps = fakeDeps({ globals: { json: true, jq: '.id' } });
    deps.ui.result(value, () => deps.ui.out('text'));
    expect(deps.stdout()).toBe('Session:1\n');
  });
});
