/**
 * Secrets under forced errors: every command that talks to the service, run with --verbose (and
 * again with --json) against a dead server, a service refusing the credentials, a server that fails
 * with 500 echoing what it received (timeouts: http-client.test.ts). Nothing printed may hold
 * the client secret, a session private key or a reveal token, and no hint may tell the user to put a
 * secret in a command line (where shell history and `ps` keep it).
 */
import { readdirSync, readFileSync } from 'node:fs';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startEmulator, type RunningEmulator } from '../../src/emulator/index.js';
import { runSvc, tempConfigDir } from '../helpers/spawn-svc.js';
import { LARGE, printFigures, report } from './report.js';

let emu: RunningEmulator;
let echo: Server;
const origin = (s: Server) => `http://127.0.0.1:${(s.address() as AddressInfo).port}`;

beforeAll(async () => {
  emu = await startEmulator({ port: 0 });
  // A broken server: 500 with everything it was sent (headers, body) in the error message.
  echo = createServer((req, res) => {
    let body = '';
    req.on('data', (d: Buffer) => (body += d.toString('latin1')));
    req.on('end', () => {
      res.writeHead(500, { 'content-type': 'application/json' });
      res.end(
        JSON.stringify({
          status: 500,
          code: 'INTERNAL',
          message: `echo ${JSON.stringify(req.headers)} ${body}`,
          details: { headers: req.headers, body },
        }),
      );
    });
  });
  await Promise.all([echo].map((s) => new Promise<void>((r) => s.listen(0, '127.0.0.1', r))));
});
afterAll(async () => {
  echo.closeAllConnections();
  await Promise.all([emu.close(), new Promise((r) => echo.close(r))]);
  printFigures();
});

describe('secrets under forced errors', () => {
  it('no output, with --verbose or --json, under any failure, holds a secret or asks for one on a command line', async () => {
    const configDir = tempConfigDir();
    const good = {
      SERVICE_BASE_URL: emu.baseUrl,
      SERVICE_API_TOKEN_ID: emu.apiTokenId,
      SERVICE_API_CLIENT_SECRET: emu.apiClientSecret,
    };
    // A real session first, so commands get as far as signing with its key.
    expect(
      (
        await runSvc(['otp', 'verify', '--credential', emu.fixtures.credentialId, '--code', '000000'], {
          env: good,
          configDir,
        })
      ).code,
    ).toBe(0);
    const reveal = await runSvc(['cards', 'reveal', emu.fixtures.cardId], { env: good, configDir });
    const revealUrl = reveal.stdout.trim();
    const token = revealUrl.split('/').pop()!;
    const keys = readdirSync(join(configDir, 'sessions')).map(
      (f) => (JSON.parse(readFileSync(join(configDir, 'sessions', f), 'utf8')) as { privateKey: string }).privateKey,
    );
    const basic = Buffer.from(`${emu.apiTokenId}:${emu.apiClientSecret}`).toString('base64'); // the secret as it travels
    const secrets = [emu.apiClientSecret, basic, token, ...keys];

    const dead = 'http://127.0.0.1:1';
    const conditions: Array<[string, NodeJS.ProcessEnv]> = [
      ['dead server', { ...good, SERVICE_BASE_URL: dead }],
      ['credentials refused (401)', { ...good, SERVICE_API_CLIENT_SECRET: `${emu.apiClientSecret}-wrong` }],
      ['500 echoing the request', { ...good, SERVICE_BASE_URL: origin(echo) }],
    ];
    const commands = [
      ['session', 'list'],
      ['session', 'refresh'],
      ['session', 'show'],
      ['sandbox', 'fund', emu.fixtures.accountId, '--amount', '100'],
      ['cards', 'reveal', emu.fixtures.cardId],
      ['otp', 'verify', '--credential', emu.fixtures.credentialId, '--code', '000000'],
      ['config', 'list'],
      ['config', 'get', 'apiClientSecret'],
    ];
    let tried = 0;
    const leaks: string[] = [];
    for (const [condition, env] of conditions) {
      for (const command of commands) {
        for (const mode of LARGE
          ? [['--verbose'], ['--verbose', '--json']]
          : [tried % 2 ? ['--verbose', '--json'] : ['--verbose']]) {
          const r = await runSvc([...mode, ...command], { env, configDir, timeoutMs: 20_000 });
          tried++;
          const printed = r.stdout + r.stderr;
          for (const secret of secrets)
            if (printed.includes(secret))
              leaks.push(
                `${condition}: svc ${mode.join(' ')} ${command.join(' ')} printed ${secret === emu.apiClientSecret || secret === basic ? 'the client secret' : secret === token ? 'the reveal token' : 'a private key'}`,
              );
          // Hints name where secrets go (environment, prompts), never a flag carrying one.
          if (/--(client-)?secret\s+\S|--private-key\s+\S|SECRET=\S+\s+svc/i.test(r.stderr))
            leaks.push(`${condition}: svc ${command.join(' ')} suggests a secret on the command line`);
        }
      }
    }
    report({
      suite: 'secrets',
      attack: `${commands.length} commands × ${conditions.length} forced failures × --verbose${LARGE ? ' and --verbose --json' : ' (every other with --json)'}`,
      tried,
      survived: tried - new Set(leaks.map((l) => l.split(' printed')[0])).size,
      lost: leaks.length,
      ...(leaks.length && { detail: leaks.slice(0, 3).join('; ') }),
    });
    expect(leaks).toEqual([]);
  }, 300_000);
});
