/**
 * Shared by the command tests: env that points a command at an emulator, a server that only
 * counts requests, to prove that bad input is refused before anything is sent, and `svc trigger`
 * run for its JSON report.
 */
import { existsSync, readFileSync, writeFileSync } from 'node:fs';
import { createServer, type Server } from 'node:http';
import { join } from 'node:path';
import type { AddressInfo } from 'node:net';
import { run as runTrigger, type TriggerOptions } from '../../../commands/trigger/run.js';
import { trigger as triggerSpec } from '../../../commands/trigger/verbs.js';
import { optionsWith } from '../../helpers/verb-options.js';
import type { AuthEnv } from '../auth/support.js';

export interface EmulatorLike {
  baseUrl: string;
  apiTokenId: string;
  apiClientSecret: string;
}

export function emulatorEnv(emu: EmulatorLike): NodeJS.ProcessEnv {
  return {
    SERVICE_BASE_URL: emu.baseUrl,
    SERVICE_API_TOKEN_ID: emu.apiTokenId,
    SERVICE_API_CLIENT_SECRET: emu.apiClientSecret,
  };
}

export interface CountingServer {
  baseUrl: string;
  count(): number;
  close(): Promise<void>;
}

/** Answers every request 500 and counts it; a test asserts count() stayed 0. */
export async function countingServer(): Promise<CountingServer> {
  let requests = 0;
  const server: Server = createServer((req, res) => {
    requests++;
    req.resume();
    res
      .writeHead(500, { 'content-type': 'application/json' })
      .end('{"status":500,"code":"INTERNAL_ERROR","message":"counting server"}');
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  return {
    baseUrl: `http://127.0.0.1:${port}/2025-10-13`,
    count: () => requests,
    close: () => new Promise((resolve) => server.close(() => resolve())),
  };
}

export const countingEnv = (server: CountingServer): NodeJS.ProcessEnv => ({
  SERVICE_BASE_URL: server.baseUrl,
  SERVICE_API_TOKEN_ID: 'token-id',
  SERVICE_API_CLIENT_SECRET: 'client-secret-value',
});

/**
 * A stand-in browser for `cards reveal --open`: a script that writes the URL it was given to a file.
 * `opened()` waits for that file, because the opener is detached and may finish after run() returns.
 */
export function recordingBrowser(dir: string): { command: string; opened(timeoutMs?: number): Promise<string> } {
  const out = join(dir, 'opened-url');
  const command = join(dir, 'fake-browser.sh');
  writeFileSync(command, `#!/bin/sh\nprintf '%s' "$1" > "${out}.tmp" && mv "${out}.tmp" "${out}"\n`, { mode: 0o755 });
  return {
    command,
    async opened(timeoutMs = 5000) {
      const deadline = Date.now() + timeoutMs;
      while (!existsSync(out)) {
        if (Date.now() > deadline) throw new Error('the browser was never opened');
        await new Promise((r) => setTimeout(r, 20));
      }
      return readFileSync(out, 'utf8');
    },
  };
}

/** Trigger options from the few a test sets; every other flag at its declared default. */
export const triggerOptions = (o: Partial<TriggerOptions> = {}): TriggerOptions => optionsWith(triggerSpec, o);

/** What `svc --json trigger` prints. */
export interface TriggerReport {
  resources: Record<string, string>;
  reused: string[];
  observed: Record<string, unknown>;
  magic: { value: string };
}

/** Runs `svc --json trigger` in-process against `t` and gives the report it printed. */
export async function triggerReport(t: Pick<AuthEnv, 'deps'>, o: Partial<TriggerOptions>): Promise<TriggerReport> {
  const d = t.deps({ globals: { json: true } });
  await runTrigger(triggerOptions(o), d);
  return JSON.parse(d.stdout()) as TriggerReport;
}

/** How many requests through `t`'s proxy could have created something (no GETs, no sandbox sends). */
export const creatingRequests = (t: Pick<AuthEnv, 'proxy'>): number =>
  t.proxy.seen.filter((s) => s.method !== 'GET' && !s.path.endsWith('/sandbox/send')).length;
