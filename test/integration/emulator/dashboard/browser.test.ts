// The dashboard in a real browser: what a person sees and does, found by accessible names only.
import { createPublicKey, verify } from 'node:crypto';
import { request } from 'undici';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { BrowserContext, Page } from 'playwright-core';
import { type TestEmulator, testEmulator, type Receiver, webhookReceiver } from '../support.js';
import { chromiumMissing, launchChromium } from './chromium.js';
import { randomToken } from '../../../helpers/random-data.js';

/** Set to a folder to write a screenshot of each view there (the README's images). */
const SHOTS = process.env.SVC_DASHBOARD_SCREENSHOTS;

describe.skipIf(chromiumMissing)('the emulator dashboard in chromium', () => {
  let t: TestEmulator;
  let hooks: Receiver;
  let chromium: { context: BrowserContext; close(): Promise<void> };
  let page: Page;
  const requested: string[] = [];
  const errors: string[] = [];
  /** The loads the first test has refused on purpose: the browser logs each as an error, maybe late. */
  const refusedOnPurpose = new Set<string>();

  beforeAll(async () => {
    t = await testEmulator();
    hooks = await webhookReceiver();
    chromium = await launchChromium({ colorScheme: 'light', viewport: { width: 1200, height: 760 } });
    page = chromium.context.pages()[0] ?? (await chromium.context.newPage());
    page.on('request', (r) => requested.push(r.url()));
    page.on('pageerror', (e) => errors.push(e.message));
    page.on('console', (m) => {
      if (m.type() === 'error' && !refusedOnPurpose.has(m.location().url))
        errors.push(`${m.text()} (${m.location().url})`);
    });
  }, 60_000);

  afterAll(async () => {
    await chromium?.close();
    await hooks?.close();
    await t?.close();
  });

  const origin = () => new URL(t.emu.baseUrl).origin;
  const shot = async (name: string) => {
    if (SHOTS) await page.screenshot({ path: `${SHOTS}/dashboard-${name}.png` });
  };

  it('refuses the page without the token (401), with a wrong one (403), and under another Host name (403)', async () => {
    refusedOnPurpose.add(`${origin()}/_dashboard/`);
    refusedOnPurpose.add(`${origin()}/_dashboard/?token=${'x'.repeat(32)}`);
    // The refusal pages are plain text, so the browser asks for /favicon.ico, which the API refuses too.
    refusedOnPurpose.add(`${origin()}/favicon.ico`);
    const bare = await page.goto(`${origin()}/_dashboard/`);
    expect(bare?.status()).toBe(401);
    expect(await page.textContent('body')).not.toContain('Requests');
    const wrong = await page.goto(`${origin()}/_dashboard/?token=${'x'.repeat(32)}`);
    expect(wrong?.status()).toBe(403);
    // DNS rebinding: the browser sends the name it resolved, not the emulator's own.
    const rebound = await request(t.emu.dashboardUrl, {
      headers: { host: `rebind.example:${new URL(origin()).port}` },
    });
    expect(rebound.statusCode).toBe(403);
    expect(await rebound.body.text()).not.toContain('<html');
  });

  it('shows a request served over the API in the Requests view, live, and opens its masked detail', async () => {
    const answer = await page.goto(t.emu.dashboardUrl);
    expect(answer?.status()).toBe(200);
    expect(answer?.headers()['content-security-policy']).toContain("default-src 'none'");
    await page.getByRole('button', { name: 'Requests', exact: true }).click();
    await expect.poll(() => page.getByRole('status').first().textContent()).toBe('live');
    const config = await t.call('GET', '/config');
    expect(config.status).toBe(200);
    const row = page.getByRole('button', { name: 'Show GET /2025-10-13/config (200)' });
    await row.waitFor();
    await row.click();
    const detail = page.locator('#request-detail');
    await detail.getByText('authorization: Basic').waitFor();
    const text = (await detail.textContent()) ?? '';
    expect(text).toContain(t.emu.apiTokenId);
    expect(text).not.toContain(t.emu.apiClientSecret);
    await shot('requests');
  });

  it('shows a customer created over the API in the Resources view, with its platformCustomerId, and finds it by search', async () => {
    await page.getByRole('button', { name: 'Resources', exact: true }).click();
    const platformCustomerId = `dash-${randomToken(8)}`;
    const created = await t.call('POST', '/customers', {
      body: { customerType: 'INDIVIDUAL', fullName: 'Dana Dashboard', platformCustomerId },
    });
    expect(created.status, created.text).toBe(201);
    // No reload: the page hears of the change on its event stream.
    await page.getByText(`${created.body.id} · platformCustomerId ${platformCustomerId}`).waitFor({ timeout: 5000 });
    await page.getByLabel('Search resources').fill(platformCustomerId);
    await page.getByRole('heading', { name: 'customers (1 of' }).waitFor();
    await shot('resources');
    await page.getByLabel('Search resources').fill('');
  });

  it('lists the test webhook delivered to a loopback receiver, and Resend delivers it again, signed', async () => {
    expect((await t.call('PATCH', '/config', { body: { webhookEndpoint: hooks.url } })).status).toBe(200);
    expect((await t.call('POST', '/sandbox/webhooks/test')).status).toBe(200);
    await hooks.waitFor(1);
    await page.getByRole('button', { name: 'Webhooks', exact: true }).click();
    const first = hooks.deliveries[0]!;
    await page.getByText(first.headers['x-service-signature'] as string).waitFor();
    await page.getByRole('cell', { name: 'TEST', exact: true }).waitFor();
    await shot('webhooks');
    await page.getByRole('button', { name: 'Resend' }).first().click();
    const [, again] = await hooks.waitFor(2);
    expect(again!.body.id).toBe(first.body.id);
    const key = createPublicKey(t.emu.webhookPublicKey);
    const signature = Buffer.from(again!.headers['x-service-signature'] as string, 'base64');
    expect(verify('sha256', again!.raw, key, signature)).toBe(true);
    await expect.poll(() => page.getByRole('button', { name: 'Resend' }).count()).toBe(2);
  });

  it('advances the emulator clock through the Clock form', async () => {
    await page.getByRole('button', { name: 'Clock', exact: true }).click();
    const before = Date.parse((await t.call('GET', '/../_emulator/clock')).body.now);
    await page.getByLabel('Advance by').fill('2h');
    await page.getByRole('button', { name: 'Advance', exact: true }).click();
    await page.getByText('Advanced by 2h').waitFor();
    const after = Date.parse((await t.call('GET', '/../_emulator/clock')).body.now);
    expect(after - before).toBeGreaterThanOrEqual(2 * 3600_000);
    expect(after - before).toBeLessThan(2 * 3600_000 + 60_000);
    await shot('clock');
  });

  it('loaded nothing from any origin but the emulator, and raised no page error', () => {
    expect(requested.length).toBeGreaterThan(5);
    expect(requested.filter((url) => !url.startsWith(`${origin()}/`))).toEqual([]);
    expect(errors).toEqual([]);
  });
});
