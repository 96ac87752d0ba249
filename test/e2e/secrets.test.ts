/**
 * One whole integrator session as real processes, every command with --verbose, then a sweep of
 * everything printed: no private key, no client secret and no reveal URL may appear anywhere but
 * the one place the user asked for it (the URL on `cards reveal`'s stdout). Key files stay 0600.
 */
import { readdirSync, readFileSync, statSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startEmulator, type RunningEmulator } from '../../src/emulator/index.js';
import { runSvc, tempConfigDir, type SvcResult } from '../helpers/spawn-svc.js';

let emu: RunningEmulator;
beforeAll(async () => {
  emu = await startEmulator({ port: 0, processingRetries: 1 });
});
afterAll(() => emu.close());

/** Every private key the store has ever held during the run (old keys are deleted after refresh). */
function storedPrivateKeys(configDir: string, into: Set<string>): void {
  const dir = join(configDir, 'sessions');
  for (const file of readdirSync(dir)) {
    const path = join(dir, file);
    expect(statSync(path).mode & 0o777).toBe(0o600);
    into.add((JSON.parse(readFileSync(path, 'utf8')) as { privateKey: string }).privateKey);
  }
}

describe('secrets never reach output', () => {
  it('keeps keys, the client secret and reveal URLs out of stdout, stderr and --verbose logs', async () => {
    const configDir = tempConfigDir();
    const env = {
      SERVICE_BASE_URL: emu.baseUrl,
      SERVICE_API_TOKEN_ID: emu.apiTokenId,
      SERVICE_API_CLIENT_SECRET: emu.apiClientSecret,
    };
    const svc = (...args: string[]) => runSvc(['--verbose', ...args], { env, configDir });
    const outputs: Array<[string, SvcResult]> = [];
    const keys = new Set<string>();
    const step = async (name: string, ...args: string[]) => {
      const r = await svc(...args);
      expect(r.code, `${name}: ${r.stderr}`).toBe(0);
      outputs.push([name, r]);
      storedPrivateKeys(configDir, keys);
      return r;
    };

    await step('otp verify', 'otp', 'verify', '--credential', emu.fixtures.credentialId, '--code', '000000');
    await step('session list', 'session', 'list');
    await step('session refresh', 'session', 'refresh');
    await step('legacy refresh', 'session', 'refresh', '--legacy');
    await step('session show', 'session', 'show');
    await step('sandbox fund', 'sandbox', 'fund', emu.fixtures.accountId, '--amount', '1000');
    const reveal = await step('cards reveal', 'cards', 'reveal', emu.fixtures.cardId);
    const failed = await svc('sandbox', 'send', '--quote', emu.fixtures.quoteId, '--currency', 'XYZ');
    outputs.push(['failing send', failed]);
    const active = JSON.parse(readFileSync(join(configDir, 'config.json'), 'utf8')) as {
      profiles: Record<string, { activeSessionId?: string }>;
    };
    const sessionId = Object.values(active.profiles).find((p) => p.activeSessionId)?.activeSessionId;
    expect(sessionId).toBeDefined();
    await step('session revoke', 'session', 'revoke', sessionId!, '--yes');

    const url = reveal.stdout.trim();
    expect(url).toMatch(/^http:\/\/127\.0\.0\.1:\d+\//);
    expect(keys.size).toBeGreaterThanOrEqual(3); // the OTP session and two refreshes
    for (const [name, r] of outputs) {
      const printed = name === 'cards reveal' ? r.stderr : r.stdout + r.stderr;
      expect(printed, name).not.toContain(emu.apiClientSecret);
      expect(printed, name).not.toContain(url);
      for (const key of keys) expect(printed, name).not.toContain(key);
    }
    // --verbose did log the requests it made, so the sweep above looked at real logs.
    expect(outputs.find(([n]) => n === 'session refresh')![1].stderr).toMatch(
      /POST \/auth\/sessions\/Session:\S+\/refresh 202/,
    );
  });
});
