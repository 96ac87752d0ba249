/** commands/input.ts: the one convention for values from a flag, a file or stdin. */
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { PassThrough } from 'node:stream';
import { describe, expect, it } from 'vitest';
import { atMostOne, readFlagOrFile, textOrAtFile } from '../../commands/input.js';
import { tempDir } from '../helpers/temp-dir.js';

/** Just enough Deps for the readers: a stdin that delivers `text`, then ends. */
function withStdin(text: string) {
  const stdin = new PassThrough();
  stdin.end(text);
  return { io: { stdin } } as unknown as Parameters<typeof readFlagOrFile>[2];
}

const flags = { text: '--body', file: '--body-file' };

describe('values from a flag, a file or stdin', () => {
  it('takes the flag as UTF-8, the file as exact bytes, and "-" as stdin', async () => {
    const dir = tempDir('svc-input-');
    const file = join(dir, 'body.bin');
    writeFileSync(file, Buffer.from([0x7b, 0x0a, 0xff]));
    expect(await readFlagOrFile({ text: 'é', file: undefined }, flags, withStdin(''))).toEqual(Buffer.from('é'));
    expect(await readFlagOrFile({ text: undefined, file }, flags, withStdin(''))).toEqual(
      Buffer.from([0x7b, 0x0a, 0xff]),
    );
    expect(await readFlagOrFile({ text: undefined, file: '-' }, flags, withStdin('piped\n'))).toEqual(
      Buffer.from('piped\n'),
    );
    expect(await readFlagOrFile({ text: undefined, file: undefined }, flags, withStdin('x'))).toBeUndefined();
  });

  it('refuses both forms at once, and an unreadable file, naming the flag', async () => {
    await expect(readFlagOrFile({ text: 'a', file: 'b' }, flags, withStdin(''))).rejects.toMatchObject({
      input: '--body',
      message: 'pass either --body or --body-file, not both',
    });
    await expect(
      readFlagOrFile({ text: undefined, file: '/nonexistent/x' }, flags, withStdin('')),
    ).rejects.toMatchObject({
      input: '--body-file',
      message: expect.stringContaining('(ENOENT)'),
    });
    expect(() => atMostOne({ '--public-key': 'k', '--skip-verify': false })).not.toThrow();
    expect(() => atMostOne({ '--public-key': 'k', '--skip-verify': true })).toThrow(
      /either --public-key or --skip-verify/,
    );
  });

  it('reads @path for keys that are files by nature, and takes anything else literally', async () => {
    const dir = tempDir('svc-input-');
    writeFileSync(join(dir, 'key.pem'), '-----BEGIN PUBLIC KEY-----\n');
    expect(await textOrAtFile(`@${join(dir, 'key.pem')}`, '--public-key', withStdin(''))).toBe(
      '-----BEGIN PUBLIC KEY-----\n',
    );
    expect(await textOrAtFile('04abcd', '--public-key', withStdin(''))).toBe('04abcd');
  });
});
