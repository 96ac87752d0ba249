import { join } from 'node:path';
import { rmSync } from 'node:fs';
import { afterEach, describe, expect, it, onTestFinished } from 'vitest';
import { FEATURES } from '../../../../src/emulator/features.js';
import { templateFeature } from '../../../../src/emulator/template/index.js';
import { errorShape } from '../support.js';
import { templateEmulator, type TemplateEmulator } from './support.js';
import { tempDir } from '../../../helpers/temp-dir.js';

const HOUR = 3600_000;
let open: TemplateEmulator[] = [];
afterEach(async () => {
  await Promise.all(open.map((t) => t.close()));
  open = [];
});
async function started(statePath?: string): Promise<TemplateEmulator> {
  const t = await templateEmulator(statePath);
  open.push(t);
  return t;
}

describe('the template area', () => {
  it('is not one the emulator serves', () => {
    expect(FEATURES).not.toContain(templateFeature);
  });

  it('makes a note (201), reads it back, and answers 400 naming the bad field and 404 for an unknown id', async () => {
    const t = await started();
    const made = await t.call('POST', '/template/notes', { body: { text: 'hello' } });
    expect(made.status).toBe(201);
    expect(made.body).toMatchObject({ id: expect.stringMatching(/^Note:/), text: 'hello' });
    expect((await t.call('GET', `/template/notes/${made.body.id}`)).body).toEqual(made.body);

    const bad = errorShape(await t.call('POST', '/template/notes', { body: { text: 7 } }));
    expect(bad).toMatchObject({ status: 400, code: 'INVALID_INPUT' });
    expect(JSON.stringify(bad)).toContain('text');
    expect(errorShape(await t.call('GET', '/template/notes/Note:nope'))).toMatchObject({ status: 404 });
  });

  it('a repeat under the same Idempotency-Key answers the first note again (the kernel keeps it; the route opts in)', async () => {
    const t = await started();
    const key = { 'Idempotency-Key': `note-${Date.now()}` };
    const first = await t.call('POST', '/template/notes', { body: { text: 'once' }, headers: key });
    const again = await t.call('POST', '/template/notes', { body: { text: 'once' }, headers: key });
    expect(first.status).toBe(201);
    expect(again.body).toEqual(first.body);
    expect(t.emu.testing.noteCount()).toBe(2); // the fixture and this one
    const other = await t.call('POST', '/template/notes', { body: { text: 'once' } });
    expect(other.body.id).not.toBe(first.body.id);
  });

  it('its start-up fixture is a note; the sweep forgets notes an hour old, as the test hook counts', async () => {
    const t = await started();
    expect((await t.call('GET', `/template/notes/${t.emu.fixtures.noteId}`)).status).toBe(200);
    await t.call('POST', '/template/notes', { body: { text: 'later' } });
    expect(t.emu.testing.noteCount()).toBe(2);
    t.emu.testing.advanceClock(HOUR + 10_000);
    expect(t.emu.testing.noteCount()).toBe(0);
    expect((await t.call('GET', `/template/notes/${t.emu.fixtures.noteId}`)).status).toBe(404);
  });

  it('with a state file, a restart keeps the notes and the fixture id', async () => {
    const folder = tempDir('svc-template-');
    onTestFinished(() => rmSync(folder, { recursive: true, force: true }));
    const statePath = join(folder, 'state.json');
    const first = await started(statePath);
    const made = await first.call('POST', '/template/notes', { body: { text: 'kept' } });
    await first.close();
    const second = await started(statePath);
    expect(second.emu.fixtures.noteId).toBe(first.emu.fixtures.noteId);
    expect((await second.call('GET', `/template/notes/${made.body.id}`)).body.text).toBe('kept');
  });
});
