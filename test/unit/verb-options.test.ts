/**
 * From a command line to the options a verb's run() receives, without spawning the CLI or running
 * the verb: the root is built with an `execute` that records what it was given (gh's runF seam).
 */
import { createRequire } from 'node:module';
import { describe, expect, it } from 'vitest';
import type { Execute } from '../../commands/program.js';
import { programFor } from '../../commands/main.js';
import { commandTree } from '../../commands/command-tree.js';
import { commandWords } from '../../commands/argv-words.js';
import type { GlobalOptions } from '../../commands/deps.js';

interface Parsed {
  verb: string;
  options: Record<string, unknown>;
  globals: GlobalOptions;
}

async function parse(...words: string[]): Promise<Parsed> {
  const argv = ['node', 'svc', ...words];
  let parsed: Parsed | undefined;
  const execute: Execute = async (verb, options, globals) => {
    parsed = { verb: verb.spec.name, options, globals };
  };
  await (await programFor(argv, execute)).parseAsync(argv);
  if (!parsed) throw new Error(`${words.join(' ')} ran no verb`);
  return parsed;
}

describe('flags to options', () => {
  it('maps positionals by the spec and leaves absent value flags undefined for run() to check', async () => {
    const { verb, options } = await parse('sandbox', 'fund', 'InternalAccount:a', '--amount', '100');
    expect(verb).toBe('fund');
    expect(options).toEqual({ account: 'InternalAccount:a', amount: '100' });
    expect((await parse('sandbox', 'fund', 'InternalAccount:a')).options).toEqual({
      account: 'InternalAccount:a',
      amount: undefined,
    });
  });

  it('collects repeatable flags in order ([] when absent); api --input is not the global --no-input', async () => {
    const { options, globals } = await parse(
      '--no-input',
      'api',
      'post',
      '/customers',
      '-f',
      'a=1',
      '--raw-field',
      'b=2',
      '-F',
      'n=3',
      '-H',
      'X-A: 1',
      '--input',
      'body.json',
      '--no-sign',
    );
    expect(options).toMatchObject({
      method: 'post',
      path: '/customers',
      rawField: ['a=1', 'b=2'],
      field: ['n=3'],
      header: ['X-A: 1'],
      query: [],
      input: 'body.json',
      sign: false,
    });
    expect(globals.input).toBe(false);
    expect((await parse('api', 'GET', '/x')).options).toMatchObject({
      rawField: [],
      field: [],
      header: [],
      query: [],
      input: undefined,
      sign: true,
      paginate: false,
    });
  });

  it('gives a variadic argument as its list, empty when none is given', async () => {
    expect((await parse('webhook', 'replay', 'Webhook:a', 'Webhook:b', '--since', '1h')).options).toEqual({
      ids: ['Webhook:a', 'Webhook:b'],
      since: '1h',
      type: undefined,
      to: undefined,
      store: undefined,
      failed: false,
      last: undefined,
    });
    expect((await parse('webhook', 'replay', '--type', 'CARD.STATE_CHANGE')).options).toMatchObject({
      ids: [],
      type: 'CARD.STATE_CHANGE',
    });
  });

  it('gives booleans as true/false, defaults as declared, and --no-x as its positive name', async () => {
    expect((await parse('session', 'refresh')).options).toEqual({ session: undefined, legacy: false });
    expect((await parse('session', 'refresh', 'Session:s', '--legacy')).options).toEqual({
      session: 'Session:s',
      legacy: true,
    });
    const start = await parse('emulator', 'start', '--no-profile', '--port', '0');
    expect(start.options).toMatchObject({ host: '127.0.0.1', port: '0', processingRetries: '0', profile: false });
    expect((await parse('emulator', 'start')).options).toMatchObject({ profile: true, duplicateDeliveries: false });
  });

  it('names a multi-word flag by its camel-cased key and shares flag groups between verbs', async () => {
    const { options } = await parse('keys', 'stamp', '--private-key-file', 'k.hex', '--payload', 'p');
    expect(options).toEqual({ privateKey: undefined, privateKeyFile: 'k.hex', payload: 'p', payloadFile: undefined });
    const verify = await parse('webhook', 'verify', '--signature', 's', '--body-file', '-');
    expect(verify.options).toEqual({ publicKey: undefined, signature: 's', body: undefined, bodyFile: '-' });
  });

  it('runs a noun that is itself the command, and passes the global flags alongside', async () => {
    const demo = await parse('--json', '--profile', 'p', 'demo', '--interactive');
    expect(demo.verb).toBe('demo');
    expect(demo.options).toEqual({ interactive: true, keep: false });
    expect(demo.globals).toMatchObject({ json: true, profile: 'p', input: true, color: true, yes: false });
  });
});

describe('global flags, declared once (commands/global-flags.ts)', () => {
  it('reads every global flag from the command line, --jq implying --json', async () => {
    const { globals } = await parse(
      '--profile',
      'p',
      '--base-url',
      'http://127.0.0.1:9/v',
      '--jq',
      '.id',
      '--timeout',
      '5',
      '--no-input',
      '-y',
      '--verbose',
      '--no-color',
      '--allow-insecure-http',
      'version',
    );
    expect(globals).toEqual({
      profile: 'p',
      baseUrl: 'http://127.0.0.1:9/v',
      jq: '.id',
      json: true,
      timeout: '5',
      input: false,
      yes: true,
      verbose: true,
      color: false,
      allowInsecureHttp: true,
    });
    expect((await parse('version')).globals).toEqual({
      profile: undefined,
      baseUrl: undefined,
      jq: undefined,
      json: false,
      timeout: undefined,
      input: true,
      yes: false,
      verbose: false,
      color: true,
      allowInsecureHttp: false,
    });
  });

  it("bin/svc.js reads the command words with the root's scanner and global value flags (the file the build writes)", async () => {
    const built = createRequire(import.meta.url)('../../dist/cli/argv-words.cjs') as {
      GLOBAL_VALUE_FLAGS: string[];
      commandWords: typeof commandWords;
      asksForHelp(args: string[], valueFlags: readonly string[]): boolean;
    };
    expect(built.GLOBAL_VALUE_FLAGS).toEqual((await commandTree()).globalValueFlags);
    expect(built.GLOBAL_VALUE_FLAGS).toContain('--timeout');
    const args = ['--timeout', '5', '--profile=dev', 'session', '--jq', '.x', 'refresh', '--json'];
    expect(built.commandWords(args, built.GLOBAL_VALUE_FLAGS)).toEqual(['session', 'refresh']);
    expect(built.asksForHelp(args, built.GLOBAL_VALUE_FLAGS)).toBe(false);
    expect(built.asksForHelp(['--profile', 'dev'], built.GLOBAL_VALUE_FLAGS)).toBe(true);
    expect(built.asksForHelp(['session', 'refresh', '-h'], built.GLOBAL_VALUE_FLAGS)).toBe(true);
  });
});
