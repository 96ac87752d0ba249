/**
 * Every verb's --help has an example and the sandbox examples
 * run against the emulator once their placeholders are filled; `svc help <noun> <verb>`, global
 * options after the command list, `svc version`, `--version --json`; shell completion, --jq,
 * --timeout and SERVICE_TIMEOUT, `session prune`, and revoking an expired session.
 */
import { createServer, type Server } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { runSvc, tempConfigDir } from '../helpers/spawn-svc.js';
import { commandTree } from '../../commands/command-tree.js';
import { OPERATIONS } from '../../commands/resources/table.js';
import { authEnv, type AuthEnv } from '../integration/auth/support.js';
import { activeSession } from '../integration/auth/login.js';
import { bashCompleter } from '../helpers/bash-completion.js';

let t: AuthEnv;
beforeAll(async () => {
  t = await authEnv();
});
afterAll(() => t.close());
const svc = (args: string[], env: NodeJS.ProcessEnv = {}) =>
  runSvc(args, { env: { ...t.env, ...env }, configDir: t.configDir });

const tree = await commandTree(OPERATIONS);

describe('help (item 7)', () => {
  // Every verb, the resource commands' included (`auth credentials list` is three words; a group has no example of its own).
  const verbs = tree.nouns.flatMap((n) =>
    n.verbs.length ? n.verbs.filter((v) => !v.group).map((v) => [n.name, ...v.name.split(' ')]) : [[n.name]],
  );

  // One string a command, so the title names it whatever its number of words.
  it.each(verbs.map((words) => words.join(' ')))('svc %s --help shows an example of itself', async (command) => {
    const r = await runSvc([...command.split(' '), '--help']);
    expect(r.code).toBe(0);
    expect(r.stdout).toMatch(new RegExp(`Examples?( \\([^)]*\\))?:\\n  \\$ .*svc (--\\S+ (\\S+ )?)*${command}\\b`));
  });

  it('the sandbox examples work against the emulator once their placeholders are filled', async () => {
    const f = t.emu.fixtures;
    const fill: Record<string, string> = {
      'InternalAccount:<uuid>': f.accountId,
      'Quote:<uuid>': f.quoteId,
      '<umaAddress>': f.umaAddress,
    };
    for (const verb of ['fund', 'send', 'uma-receive']) {
      const help = (await runSvc(['sandbox', verb, '--help'])).stdout;
      const examples = help
        .split('\n  $ ')
        .slice(1)
        .map((e) => e.split('\n\n')[0]!.replace(/\\\n\s*/g, ''));
      expect(examples.length).toBeGreaterThan(0);
      for (const example of examples) {
        let line = example.trim();
        for (const [placeholder, value] of Object.entries(fill)) line = line.split(placeholder).join(value);
        const args = [...line.matchAll(/'([^']*)'|(\S+)/g)].map((m) => m[1] ?? m[2]!).slice(1);
        const r = await svc(args);
        expect({ line, code: r.code, stderr: r.stderr }).toMatchObject({ code: 0 });
      }
    }
  });

  it('svc help <noun> <verb> shows that verb; root help lists commands before the global options', async () => {
    const r = await runSvc(['help', 'session', 'refresh']);
    expect(r.code).toBe(0);
    expect(r.stdout).toMatch(/^Usage: svc session refresh/);
    const root = (await runSvc(['--help'])).stdout;
    expect(root.indexOf('Other commands:')).toBeGreaterThan(0);
    expect(root.indexOf('Options:')).toBeGreaterThan(root.indexOf('Other commands:'));
  });

  it('root help groups the nouns under headings, as gh does: core, resources, emulator, other', async () => {
    const root = (await runSvc(['--help'])).stdout;
    const groups = [...root.matchAll(/^(\w[\w ]*):\n((?: {2}.*\n)+)/gm)].map((m) => ({
      heading: m[1],
      nouns: [...m[2]!.matchAll(/^ {2}([\w-]+)/gm)].map((n) => n[1]),
    }));
    expect(groups.map((g) => g.heading).slice(0, 4)).toEqual([
      'Core commands',
      'Resource commands',
      'Emulator commands',
      'Other commands',
    ]);
    const under = Object.fromEntries(groups.map((g) => [g.heading, g.nouns]));
    expect(under['Core commands']).toEqual(expect.arrayContaining(['login', 'session', 'auth', 'sandbox', 'trigger']));
    expect(under['Resource commands']).toEqual(expect.arrayContaining(['cards', 'customers', 'quotes']));
    expect(under['Emulator commands']).toEqual(['emulator', 'demo']);
    expect(under['Other commands']).toEqual(expect.arrayContaining(['config', 'completion', 'version', 'help']));
    expect(root).not.toMatch(/^Commands:/m);
    // A noun's own help keeps one plain list of its verbs.
    expect((await runSvc(['session', '--help'])).stdout).toMatch(/^Commands:\n {2}list/m);
  });

  it('svc version, and --version --json with Node and platform', async () => {
    expect((await runSvc(['version'])).stdout.trim()).toMatch(/^\d+\.\d+\.\d+$/);
    const r = await runSvc(['--version', '--json']);
    expect(r.code).toBe(0);
    expect(JSON.parse(r.stdout)).toEqual({
      version: expect.stringMatching(/^\d+\.\d+\.\d+$/),
      node: process.versions.node,
      platform: process.platform,
      arch: process.arch,
    });
  });
});

describe('conventions (item 12)', () => {
  it("svc completion bash completes nouns, verbs and a verb's flags; zsh and fish scripts are printed", async () => {
    const script = join(tempConfigDir(), 'svc.bash');
    const bash = await runSvc(['completion', 'bash']);
    expect(bash.code).toBe(0);
    writeFileSync(script, bash.stdout);
    const complete = bashCompleter(script);
    expect(complete(['svc', 'sess'])).toBe('session');
    expect(complete(['svc', '--profile', 'x', 'session', 're']).split(' ').sort()).toEqual(['refresh', 'revoke']);
    expect(complete(['svc', 'sandbox', 'fund', '--am'])).toBe('--amount');
    expect((await runSvc(['completion', 'zsh'])).stdout).toMatch(/^#compdef svc/);
    expect((await runSvc(['completion', 'fish'])).stdout).toMatch(/complete -c svc .*-a session/);
    expect((await runSvc(['completion', 'tcsh'])).code).toBe(2);
  });

  it('--jq filters --json output (strings raw); a bad expression is exit 2 before any request', async () => {
    const before = t.proxy.seen.length;
    const bad = await svc(['--jq', '.balance[', 'sandbox', 'fund', t.emu.fixtures.accountId, '--amount', '100']);
    expect(bad.code).toBe(2);
    expect(bad.stderr).toContain('--jq');
    expect(t.proxy.seen.length).toBe(before);
    const r = await svc([
      '--jq',
      '.balance.currency.code, .id',
      'sandbox',
      'fund',
      t.emu.fixtures.accountId,
      '--amount',
      '100',
    ]);
    expect(r.code).toBe(0);
    expect(r.stdout).toBe(`USD\n${t.emu.fixtures.accountId}\n`);
  });

  it('--timeout and SERVICE_TIMEOUT give up on a silent server; a bad value is exit 2 naming it', async () => {
    const silent: Server = createServer(() => {});
    await new Promise<void>((resolve) => silent.listen(0, '127.0.0.1', resolve));
    const url = `http://127.0.0.1:${(silent.address() as { port: number }).port}`;
    let connections = 0;
    silent.on('connection', () => connections++);
    try {
      const args = ['--json', 'sandbox', 'fund', t.emu.fixtures.accountId, '--amount', '100'];
      const flag = await svc(['--timeout', '0.3', ...args], { SERVICE_BASE_URL: url });
      expect(flag.code).toBe(1);
      expect(JSON.parse(flag.stderr).error).toMatchObject({ type: 'network', timedOut: true });
      const env = await svc(args, { SERVICE_BASE_URL: url, SERVICE_TIMEOUT: '0.3' });
      expect(JSON.parse(env.stderr).error).toMatchObject({ type: 'network', timedOut: true });
      const seen = connections;
      const bad = await svc(['--timeout', 'soon', ...args], { SERVICE_BASE_URL: url });
      expect(bad.code).toBe(2);
      expect(JSON.parse(bad.stderr).error).toMatchObject({ type: 'usage', field: '--timeout' });
      expect(connections).toBe(seen);
    } finally {
      silent.close();
    }
  });

  it('revoking an expired session succeeds like the service and forgets its key', async () => {
    expect((await svc(['otp', 'verify', '--credential', t.emu.fixtures.credentialId, '--code', '000000'])).code).toBe(
      0,
    );
    const session = activeSession(t)!;
    // Expired both for the service (its clock) and here (the stored expiry), so no key can sign.
    t.emu.testing.advanceClock(16 * 60_000);
    t.store().saveSession({ ...session, expiresAt: new Date(Date.now() - 60_000).toISOString() });
    const r = await svc(['--json', '--yes', 'session', 'revoke', session.id]);
    expect({ code: r.code, stderr: r.stderr }).toEqual({ code: 0, stderr: '' });
    expect(JSON.parse(r.stdout)).toEqual({ id: session.id, revoked: true, keyForgotten: true });
    expect(t.store().getSession(session.id)).toBeUndefined();
  });

  it('session prune deletes expired keys and keys the service no longer lists, keeps live ones', async () => {
    expect((await svc(['otp', 'verify', '--credential', t.emu.fixtures.credentialId, '--code', '000000'])).code).toBe(
      0,
    );
    const revoked = activeSession(t)!;
    expect((await svc(['otp', 'verify', '--credential', t.emu.fixtures.credentialId, '--code', '000000'])).code).toBe(
      0,
    );
    const live = activeSession(t)!;
    expect((await svc(['otp', 'verify', '--credential', t.emu.fixtures.credentialId, '--code', '000000'])).code).toBe(
      0,
    );
    const expired = activeSession(t)!;
    t.store().saveSession({ ...expired, expiresAt: new Date(Date.now() - 60_000).toISOString() });
    // Revoked elsewhere: revoke it, then put its key back as if another machine had revoked it.
    expect((await svc(['--yes', 'session', 'revoke', revoked.id])).code).toBe(0);
    t.store().saveSession(revoked);
    t.store().setProfile('default', { activeSessionId: live.id });
    const dry = await svc(['--json', 'session', 'prune', '--dry-run']);
    expect(dry.code).toBe(0);
    const ids = (JSON.parse(dry.stdout) as { pruned: { id: string }[] }).pruned.map((p) => p.id);
    expect(ids.sort()).toEqual([expired.id, revoked.id].sort());
    expect(t.store().getSession(expired.id)).toBeDefined();
    const r = await svc(['session', 'prune']);
    expect(r.code).toBe(0);
    expect(r.stdout).toContain(revoked.id);
    expect(t.store().getSession(expired.id)).toBeUndefined();
    expect(t.store().getSession(revoked.id)).toBeUndefined();
    expect(t.store().getSession(live.id)).toBeDefined();
  });
});
