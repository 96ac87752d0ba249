import { spawnSync } from 'node:child_process';
import { existsSync, readdirSync, readFileSync, symlinkSync, writeFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { openSeenIds } from '../../../src/webhook/dedupe.js';
import { SeenSet } from '../../../src/webhook/seen-set.js';
import { UsageError } from '../../../src/errors.js';
import { MARKER } from '../../../src/webhook/journal/format.js';
import { tempDir } from '../../helpers/temp-dir.js';

const tempFile = () => join(tempDir('svc-dedupe-'), 'nested', 'seen.log');
const lines = (path: string) =>
  readFileSync(path, 'utf8')
    .split('\n')
    .filter((l) => l !== '' && l !== MARKER);
const ids = (n: number, from = 0) =>
  Array.from({ length: n }, (_, i) => `Webhook:${String(from + i).padStart(4, '0')}`);

describe('SeenSet', () => {
  it('evicts the oldest id once over capacity, and a re-added id counts as new', () => {
    const set = new SeenSet(3);
    for (const id of ['a', 'b', 'c']) set.add(id);
    set.add('a'); // touched: b is now the oldest
    set.add('d');
    expect([...set.values()]).toEqual(['c', 'a', 'd']);
    expect(set.has('b')).toBe(false);
    expect(set.size).toBe(3);
  });

  it('refuses a capacity that is not a positive integer', () => {
    expect(() => new SeenSet(0)).toThrow(RangeError);
  });
});

describe('openSeenIds in memory', () => {
  it('records synchronously (nothing to wait for) and stays bounded', () => {
    const store = openSeenIds({ maxIds: 100 });
    for (const id of ids(250)) expect(store.record(id)).toBeUndefined();
    expect(store.size).toBe(100);
    expect(store.has('Webhook:0249')).toBe(true);
    expect(store.has('Webhook:0149')).toBe(false);
    expect(store.has('Webhook:0150')).toBe(true);
  });
});

describe('openSeenIds with a file', () => {
  it('makes an id visible only once it is on disk, and keeps it across a restart', async () => {
    const path = tempFile();
    const store = openSeenIds({ storePath: path });
    const durable = store.record('Webhook:1');
    expect(store.has('Webhook:1')).toBe(false);
    await durable;
    expect(store.has('Webhook:1')).toBe(true);
    expect(lines(path)).toEqual(['"Webhook:1"']);
    await store.close();

    const again = openSeenIds({ storePath: path });
    expect(again.has('Webhook:1')).toBe(true);
    expect(again.has('Webhook:2')).toBe(false);
    await again.close();
  });

  it('group-commits ids recorded together: one shared write, every caller resolved', async () => {
    const path = tempFile();
    const store = openSeenIds({ storePath: path });
    const batch = ids(50).map((id) => store.record(id));
    expect(new Set(batch).size).toBe(1); // one promise, so one write + one fdatasync for all fifty
    await Promise.all(batch);
    const later = store.record('Webhook:late');
    expect(later).not.toBe(batch[0]);
    await later;
    expect(lines(path)).toHaveLength(51);
    await store.close();
  });

  it('moves a torn last line aside at load, says so, and appends after it cleanly', async () => {
    const path = tempFile();
    const first = openSeenIds({ storePath: path });
    await first.record('Webhook:whole');
    await first.close();
    writeFileSync(path, readFileSync(path, 'utf8') + '"Webhook:tor', { flag: 'w' }); // crash mid-append

    const store = openSeenIds({ storePath: path });
    expect(store.has('Webhook:whole')).toBe(true);
    expect(store.has('Webhook:tor')).toBe(false);
    expect(readFileSync(path, 'utf8')).toBe(`${MARKER}\n"Webhook:whole"\n`);
    const aside = readdirSync(dirname(path)).filter((f) => f.startsWith('seen.log.torn-'));
    expect(aside).toHaveLength(1);
    expect(readFileSync(join(dirname(path), aside[0]!), 'utf8')).toBe('"Webhook:tor');
    expect(store.notes.join('\n')).toContain(`line 3 was cut short`);
    expect(store.notes.join('\n')).toContain(aside[0]);
    await store.record('Webhook:torn');
    await store.close();
    expect(lines(path)).toEqual(['"Webhook:whole"', '"Webhook:torn"']);
  });

  it('refuses a damaged journal naming the line and --repair, writing nothing; with repair moves the tail aside', async () => {
    const path = tempFile();
    const store0 = openSeenIds({ storePath: path });
    await store0.close();
    const damaged = `${MARKER}\n"Webhook:a"\n{garbage\n"Webhook:b"\n`;
    writeFileSync(path, damaged);
    const refused = (() => {
      try {
        openSeenIds({ storePath: path });
      } catch (error) {
        return error;
      }
    })() as UsageError;
    expect(refused).toBeInstanceOf(UsageError);
    expect(refused.message).toBe(`${path} is damaged at line 3: it is not a journal line`);
    expect(refused).toMatchObject({ reason: 'STORE_DAMAGED', input: 'store' });
    expect(refused.hint).toContain('line 3 and everything after it move aside');
    expect(readFileSync(path, 'utf8')).toBe(damaged);
    expect(existsSync(`${path}.lock`)).toBe(false);

    const store = openSeenIds({ storePath: path, repair: true });
    expect(store.has('Webhook:a')).toBe(true);
    expect(store.has('Webhook:b')).toBe(false);
    const aside = readdirSync(dirname(path)).filter((f) => f.startsWith('seen.log.damaged-'));
    expect(readFileSync(join(dirname(path), aside[0]!), 'utf8')).toBe('{garbage\n"Webhook:b"\n');
    expect(store.notes[0]).toContain(`line 3 was damaged; moved it and everything after it`);
    expect(store.notes[0]).toContain(aside[0]);
    await store.close();
    expect(readFileSync(path, 'utf8')).toBe(`${MARKER}\n"Webhook:a"\n`);
  });

  it('refuses, before any write, a file that is not a journal, an empty file, a folder and a symbolic link', async () => {
    const dir = tempDir('svc-dedupe-');
    const refusal = (path: string) => {
      try {
        openSeenIds({ storePath: path }).close();
      } catch (error) {
        return error as UsageError;
      }
      throw new Error(`${path} was opened`);
    };
    const text = join(dir, 'package.json');
    const content = '{"name":"app"}\n"Webhook:looks-like-an-id"\n';
    writeFileSync(text, content);
    const empty = join(dir, 'empty.log');
    writeFileSync(empty, '');
    const journal = join(dir, 'real.log');
    await openSeenIds({ storePath: journal }).close();
    const link = join(dir, 'link.log');
    symlinkSync(journal, link);
    for (const path of [text, empty]) {
      expect(refusal(path)).toMatchObject({ reason: 'STORE_NOT_JOURNAL', input: 'store' });
      expect(refusal(path).message).toContain(`${path} is not a listener journal`);
    }
    expect(refusal(dir)).toMatchObject({ reason: 'STORE_NOT_JOURNAL' });
    expect(refusal(link)).toMatchObject({ reason: 'STORE_IS_LINK' });
    expect(readFileSync(text, 'utf8')).toBe(content);
    expect(readFileSync(empty, 'utf8')).toBe('');
    expect(readdirSync(dir).sort()).toEqual(['empty.log', 'link.log', 'package.json', 'real.log']);
  });

  it('keeps only the newest maxIds at load', async () => {
    const path = tempFile();
    const big = openSeenIds({ storePath: path, maxIds: 1000 });
    await Promise.all(ids(10).map((id) => big.record(id)));
    await big.close();
    const small = openSeenIds({ storePath: path, maxIds: 3, compactAfterLines: 1000 });
    expect(small.size).toBe(3);
    expect(ids(10).filter((id) => small.has(id))).toEqual(ids(3, 7));
    await small.close();
  });

  it('compacts the file once it reaches the threshold, atomically, keeping the newest ids', async () => {
    const path = tempFile();
    const store = openSeenIds({ storePath: path, maxIds: 5, compactAfterLines: 10 });
    for (const id of ids(23)) await store.record(id); // one batch each: the file grows line by line
    const onDisk = lines(path);
    expect(onDisk.length).toBeLessThan(10);
    expect(onDisk.slice(-5)).toEqual(ids(5, 18).map((id) => JSON.stringify(id)));
    const dir = join(path, '..');
    expect(readdirSync(dir).filter((f) => f.includes('.tmp'))).toEqual([]);
    await store.record('Webhook:after');
    await store.close();

    const again = openSeenIds({ storePath: path, maxIds: 5, compactAfterLines: 10 });
    expect(again.has('Webhook:after')).toBe(true);
    expect(again.has('Webhook:0022')).toBe(true);
    expect(again.has('Webhook:0000')).toBe(false);
    await again.close();
  });

  it('compacts at load a file that is already over the threshold', async () => {
    const path = tempFile();
    const store0 = openSeenIds({ storePath: path });
    await store0.close();
    writeFileSync(
      path,
      `${MARKER}\n${ids(40)
        .map((id) => JSON.stringify(id) + '\n')
        .join('')}`,
    );
    const store = openSeenIds({ storePath: path, maxIds: 4, compactAfterLines: 20 });
    expect(lines(path)).toEqual(ids(4, 36).map((id) => JSON.stringify(id)));
    await store.close();
  });

  it('stores ids with any characters, one per line', async () => {
    const path = tempFile();
    const odd = 'Webhook:"quoted"\nnewline\u2028';
    const store = openSeenIds({ storePath: path });
    await store.record(odd);
    await store.close();
    expect(lines(path)).toHaveLength(1);
    const again = openSeenIds({ storePath: path });
    expect(again.has(odd)).toBe(true);
    await again.close();
  });

  it('flush waits for pending ids; record after close rejects', async () => {
    const path = tempFile();
    const store = openSeenIds({ storePath: path });
    void store.record('Webhook:x');
    await store.flush();
    expect(store.has('Webhook:x')).toBe(true);
    await store.close();
    await expect(store.record('Webhook:y')).rejects.toThrow(/closed/);
    expect(existsSync(path)).toBe(true);
  });
});

describe('the --store journal: deliveries begun and not finished', () => {
  const body = (id: string) =>
    Buffer.from(JSON.stringify({ id, type: 'CARD.STATE_CHANGE', note: 'é "quoted" \\ \n' }), 'utf8');
  const headers = { 'content-type': 'application/json', 'x-service-signature': '{"v":"1","s":"abc="}' };

  it('hands back, after a reopen, exactly the begun ids that were neither recorded nor released, bytes intact', async () => {
    const path = tempFile();
    const store = openSeenIds({ storePath: path });
    await Promise.all(['Webhook:a', 'Webhook:b', 'Webhook:c'].map((id) => store.begin(id, body(id), headers)));
    await store.record('Webhook:a');
    store.release('Webhook:b');
    await store.flush();
    // No close(): the process is gone as after a SIGKILL (the lock is taken over as stale in real life).
    const lock = `${path}.lock`;
    writeFileSync(lock, '999999999\n');
    const again = openSeenIds({ storePath: path });
    expect(again.has('Webhook:a')).toBe(true);
    expect(again.has('Webhook:c')).toBe(false);
    const interrupted = again.interrupted();
    expect(interrupted.map((d) => d.id)).toEqual(['Webhook:c']);
    expect(interrupted[0]!.read()!.body.equals(body('Webhook:c'))).toBe(true);
    expect(interrupted[0]!.read()!.headers).toEqual(headers);
    await again.close();
  });

  it('under a steady stream, a delivery done printing rides the very next fdatasync with the deliveries begun meanwhile', async () => {
    const store = openSeenIds({ storePath: tempFile() });
    const turn = () => new Promise((resolve) => setImmediate(resolve));
    // A is begun; while its write and fdatasync are under way B arrives: B waits for the next one.
    const aBegun = store.begin('Webhook:A', body('Webhook:A'), headers);
    await turn();
    const bBegun = store.begin('Webhook:B', body('Webhook:B'), headers);
    expect(bBegun).not.toBe(aBegun);
    await aBegun;
    await turn(); // A is printed: its line leaves stdout at the end of a turn (commands/webhook/listen-output.ts)
    const aDone = store.record('Webhook:A', { verified: true });
    // The same batch (one write, one fdatasync) as B's begun line, not a third one behind it.
    expect(aDone).toBe(bBegun);
    await aDone;
    expect(store.has('Webhook:A')).toBe(true);
    await store.close();
  });

  it('compaction keeps the begun lines of deliveries still under way and drops finished bodies', async () => {
    const path = tempFile();
    const store = openSeenIds({ storePath: path, maxIds: 10, compactAfterLines: 12 });
    await store.begin('Webhook:open', body('Webhook:open'), headers);
    for (const id of ids(8)) {
      await store.begin(id, body(id), headers);
      await store.record(id);
    }
    await store.flush();
    const text = readFileSync(path, 'utf8');
    expect(lines(path).length).toBeLessThan(17); // 17 appended: compacted once at 12, next at twice what it kept
    expect(text).toContain('"p":"Webhook:open"');
    expect(text).not.toContain('"p":"Webhook:0000"'); // finished: its body is gone, its id stays
    expect(text).toContain('"Webhook:0000"');
    await store.close();
    const again = openSeenIds({ storePath: path, maxIds: 10, compactAfterLines: 12 });
    expect(again.interrupted().map((d) => d.id)).toEqual(['Webhook:open']);
    await again.close();
  });

  it('tells a delivery waiting for a retry (queued: never shown) from one a crash interrupted; a new begin clears it', async () => {
    const path = tempFile();
    const store = openSeenIds({ storePath: path, maxIds: 10, compactAfterLines: 8 });
    for (const id of ['Webhook:q', 'Webhook:i', 'Webhook:again']) await store.begin(id, body(id), headers);
    store.queue('Webhook:q');
    store.queue('Webhook:again');
    await store.flush();
    await store.begin('Webhook:again', body('Webhook:again'), headers); // its retry started
    for (const id of ids(4)) await store.record(id); // enough lines to compact: the states survive it
    await store.flush();
    writeFileSync(`${path}.lock`, '999999999\n');
    const again = openSeenIds({ storePath: path, maxIds: 10, compactAfterLines: 8 });
    expect(again.interrupted().map((d) => [d.id, d.queued])).toEqual([
      ['Webhook:q', true],
      ['Webhook:i', false],
      ['Webhook:again', false],
    ]);
    await again.close();
  });
});

describe('openSeenIds: one listener per store file', () => {
  it('refuses a store file another open store holds, naming its pid; free again after close', async () => {
    const path = tempFile();
    const first = openSeenIds({ storePath: path });
    let error: unknown;
    try {
      openSeenIds({ storePath: path, input: 'journal' }); // the error names the input by the caller's key
    } catch (e) {
      error = e;
    }
    expect(error).toBeInstanceOf(UsageError);
    expect(error).toMatchObject({
      input: 'journal',
      reason: 'STORE_IN_USE',
      message: expect.stringContaining(`pid ${process.pid}`),
    });
    await first.record('Webhook:kept');
    await first.close();
    const second = openSeenIds({ storePath: path });
    expect(second.has('Webhook:kept')).toBe(true);
    await second.close();
    expect(readdirSync(join(path, '..'))).toEqual(['seen.log']); // no lock or temp file left behind
  });

  it('takes over a lock left by a listener that died without cleaning up', async () => {
    const path = tempFile();
    const store0 = openSeenIds({ storePath: path });
    await store0.close();
    const dead = spawnSync(process.execPath, ['-e', 'process.stdout.write(String(process.pid))'], { encoding: 'utf8' });
    writeFileSync(`${path}.lock`, `${dead.stdout}\n`);
    const store = openSeenIds({ storePath: path });
    await store.record('Webhook:after-takeover');
    await store.close();
    expect(existsSync(`${path}.lock`)).toBe(false);
  });
});

describe('defaults a user gets without options', () => {
  it('a SeenSet of capacity 1 keeps the latest id; 0 is refused saying what is wanted', () => {
    const set = new SeenSet(1);
    set.add('a');
    set.add('b');
    expect([...set.values()]).toEqual(['b']);
    expect(() => new SeenSet(0)).toThrow('capacity must be a positive integer');
  });

  it('the memory store is not durable and has nothing interrupted to finish', () => {
    const store = openSeenIds();
    expect(store.durable).toBe(false);
    expect(store.interrupted()).toEqual([]);
  });

  it('the file is compacted at twice maxIds lines, not before', async () => {
    const path = tempFile();
    const store = openSeenIds({ storePath: path, maxIds: 5 });
    for (const id of ids(9)) await store.record(id); // one batch each: one line each
    expect(lines(path)).toHaveLength(9);
    for (const id of ids(3, 9)) await store.record(id);
    expect(lines(path).length).toBeLessThan(10);
    await store.close();
  });
});
