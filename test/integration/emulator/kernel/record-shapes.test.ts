/**
 * Every durable table declares the shape of its records, and the --state file's load checks it: a
 * hand-edited record of the wrong shape in any table is refused at start, naming the file and the
 * record's path inside it, and the file is left as it was (issue: nothing wrong is ever served).
 */
import { readFileSync, rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { UsageError } from '../../../../src/errors.js';
import { FEATURES } from '../../../../src/emulator/features.js';
import { startEmulator } from '../../../../src/emulator/index.js';
import { webhookEvents } from '../../../../src/emulator/kernel/event-log.js';
import type { TableDef } from '../../../../src/emulator/kernel/tables.js';
import { tempDir } from '../../../helpers/temp-dir.js';

const dir = tempDir('svc-record-shapes-');
afterAll(() => rmSync(dir, { recursive: true, force: true }));

const durable = [webhookEvents, ...FEATURES.flatMap((f) => f.tables ?? [])].filter(
  (def): def is TableDef<unknown> => def.durable,
);

/** A value of the kind a shape names, and one of another kind. */
const VALUES: Record<string, unknown> = { string: 'x', number: 1, boolean: true, array: [], object: {} };
const wrongFor = (kind: string) => (kind === 'string' ? 42 : 'not-a-' + kind);

describe('durable tables', () => {
  it('each declares its records’ shape, with at least one field it checks', () => {
    expect(durable.length).toBeGreaterThan(20);
    const unchecked = durable
      .filter((def) => !Object.values(def.shape ?? {}).some((kind) => kind !== 'any'))
      .map((def) => def.name);
    expect(unchecked).toEqual([]);
  });

  it.each(durable.map((def) => [def.name, def] as const))(
    '%s: a record of the wrong shape in the --state file is refused at start, naming the file and its path',
    async (name, def) => {
      const statePath = join(dir, `${name}.json`);
      const first = await startEmulator({ port: 0, statePath });
      await first.close();
      const saved = JSON.parse(readFileSync(statePath, 'utf8')) as Record<string, unknown>;
      // Every checked field of the right kind (the id its key) but one, the first other than the id.
      const fields = Object.entries(def.shape!).filter(([field, kind]) => kind !== 'any' && field !== 'id');
      const record: Record<string, unknown> = {};
      for (const [field, kind] of fields) record[field] = VALUES[kind.replace('?', '')];
      if ('id' in def.shape!) record.id = 'Bad:1';
      const [field, kind] = fields[0]!;
      record[field] = wrongFor(kind.replace('?', ''));
      const text = JSON.stringify({ ...saved, [name]: { 'Bad:1': record } });
      writeFileSync(statePath, text);

      const refused = await startEmulator({ port: 0, statePath }).then(
        (emu) => emu.close().then(() => undefined),
        (error: unknown) => error,
      );
      expect(refused).toBeInstanceOf(UsageError);
      expect((refused as Error).message).toContain(statePath);
      expect((refused as Error).message).toContain(`${name}["Bad:1"].${field}`);
      expect(readFileSync(statePath, 'utf8')).toBe(text);
    },
  );
});
