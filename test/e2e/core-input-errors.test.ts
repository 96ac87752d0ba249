/**
 * The core (src/webhook, src/webhook-replay, src/trigger) names the input an error is about by its
 * option key and a reason code, never a flag; the command shows the key as its own flag, in the text
 * (`--forward-to: …`) and as `field` under --json, with the CLI's hint for the reason. One core error
 * per command that raises it, through a real `bin/svc`.
 */
import { createServer, type Server } from 'node:net';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startEmulator, type RunningEmulator } from '../../src/emulator/index.js';
import { runSvc, tempConfigDir } from '../helpers/spawn-svc.js';
import { emulatorEnv } from '../integration/commands/helpers.js';

const NO_SUCH_CUSTOMER = 'Customer:00000000-0000-4000-8000-000000000000';

/** The one --json error object on stderr. */
function jsonError(stderr: string): Record<string, unknown> {
  const lines = stderr.trim().split('\n');
  expect(lines, stderr).toHaveLength(1);
  return (JSON.parse(lines[0]!) as { error: Record<string, unknown> }).error;
}

/** Runs `args` as text and as --json: both must refuse with `code`. */
async function both(args: string[], code: number, env?: NodeJS.ProcessEnv) {
  const [text, json] = await Promise.all([runSvc(args, { env }), runSvc(['--json', ...args], { env })]);
  expect(text.code, text.stderr).toBe(code);
  expect(json.code, json.stderr).toBe(code);
  return { text: text.stderr, json: jsonError(json.stderr) };
}

describe('core errors name the flag of the command that raised them', () => {
  it('webhook listen --forward-to: the forwarder refuses the URL as --forward-to', async () => {
    const r = await both(['webhook', 'listen', '--skip-verify', '--port', '0', '--forward-to', 'ftp://app.test'], 2);
    expect(r.text).toContain('Error: --forward-to: "ftp://app.test" is not an http(s) URL or host:port');
    expect(r.text).toContain('Hint: For example localhost:3000/webhooks');
    expect(r.json).toMatchObject({ type: 'usage', field: '--forward-to', reason: 'NOT_HTTP_URL' });
  });

  it('webhook listen --route: a bad route names --route', async () => {
    const r = await both(['webhook', 'listen', '--skip-verify', '--port', '0', '--route', 'CARD.*=ftp://a.test'], 2);
    expect(r.text).toContain('Error: --route: CARD.*=ftp://a.test: the target must be an http(s) URL');
    expect(r.json).toMatchObject({ type: 'usage', field: '--route', reason: 'NOT_HTTP_URL' });
  });

  describe('webhook listen --port in use', () => {
    let busy: Server;
    beforeAll(async () => {
      busy = createServer();
      await new Promise<void>((resolve) => busy.listen(0, '127.0.0.1', resolve));
    });
    afterAll(() => new Promise<void>((resolve) => busy.close(() => resolve())));

    it('names --port, and the hint says which flag to change', async () => {
      const port = String((busy.address() as { port: number }).port);
      const r = await both(['webhook', 'listen', '--skip-verify', '--port', port], 2);
      expect(r.text).toContain(`Error: --port: port ${port} on 127.0.0.1 is already in use`);
      expect(r.text).toContain('Hint: Pass another --port (0 picks a free one).');
      expect(r.json).toMatchObject({ type: 'usage', field: '--port', reason: 'PORT_IN_USE' });
    });
  });

  it('webhook replay --to: the same forwarder refuses the URL as --to (no error caught and said again)', async () => {
    const store = join(tempConfigDir(), 'seen.json');
    const r = await both(['webhook', 'replay', '--store', store, '--last', '1', '--to', 'ftp://app.test'], 2);
    expect(r.text).toContain('Error: --to: "ftp://app.test" is not an http(s) URL or host:port');
    expect(r.json).toMatchObject({ type: 'usage', field: '--to', reason: 'NOT_HTTP_URL' });
  });

  it('webhook replay --store: an unreadable journal names --store, the hint how to get one', async () => {
    const store = join(tempConfigDir(), 'missing.json');
    const r = await both(['webhook', 'replay', '--store', store, '--failed'], 2);
    expect(r.text).toContain(`Error: --store: cannot read the journal ${store} (ENOENT)`);
    expect(r.text).toContain('Hint: Pass the journal file a listener was given with --store.');
    expect(r.json).toMatchObject({ type: 'usage', field: '--store', reason: 'UNREADABLE_JOURNAL' });
  });

  it('trigger --set: a value that would defeat the magic row names --set', async () => {
    const r = await both(['trigger', 'kyc.rejected', '--set', 'customer.fullName=Jane Roe'], 2);
    expect(r.text).toContain('Error: --set: customer.fullName=Jane Roe: its ending selects another row');
    expect(r.text).toContain('Hint: svc trigger --list');
    expect(r.json).toMatchObject({ type: 'usage', field: '--set', reason: 'BAD_VALUE' });
  });

  it('trigger with several refused inputs: each problem after its own flag', async () => {
    const r = await both(['trigger', 'kyc.rejected', '--customer', NO_SUCH_CUSTOMER, '--set', 'customer.x=1'], 2);
    expect(r.text).toContain('Error: 2 inputs need fixing:\n  - --customer: kyc.rejected cannot reuse your customer');
    expect(r.text).toContain('\n  - --set: kyc.rejected has no settable "customer.x"');
    expect(r.json).toMatchObject({ type: 'usage', field: '--customer,--set' });
  });

  describe('against an emulator', () => {
    let emu: RunningEmulator;
    beforeAll(async () => (emu = await startEmulator({ port: 0 })));
    afterAll(() => emu.close());

    it("trigger --customer the service does not know: the recipe's refusal names --customer (exit 1)", async () => {
      const r = await both(['trigger', 'card.frozen', '--customer', NO_SUCH_CUSTOMER], 1, emulatorEnv(emu));
      expect(r.text).toContain(`Error: --customer: ${NO_SUCH_CUSTOMER} does not exist at this service.`);
      expect(r.json).toMatchObject({ type: 'failure', field: '--customer', reason: 'NOT_FOUND' });
    });
  });
});
