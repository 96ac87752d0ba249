/**
 * Debian's chromium driven by playwright-core (no browser of its own is ever downloaded). Outside
 * CI a machine without /usr/bin/chromium skips the browser tests with a message saying so; in CI
 * (CI=true, where .ci/run installs it) they never skip.
 */
import { existsSync, rmSync } from 'node:fs';
import { type BrowserContext, chromium } from 'playwright-core';
import { tempDir } from '../../../helpers/temp-dir.js';

export const CHROMIUM = process.env.SVC_CHROMIUM ?? '/usr/bin/chromium';
export const chromiumMissing = !existsSync(CHROMIUM) && process.env.CI !== 'true';
if (chromiumMissing)
  console.warn(`Skipping the dashboard browser tests: no chromium at ${CHROMIUM} (apt-get install -y chromium)`);

/** A fresh profile folder each launch (playwright passes it as --user-data-dir), removed on close. */
export async function launchChromium(
  options: { colorScheme?: 'light' | 'dark'; viewport?: { width: number; height: number } } = {},
): Promise<{ context: BrowserContext; close(): Promise<void> }> {
  const profile = tempDir('svc-chromium-');
  const context = await chromium.launchPersistentContext(profile, {
    ...options,
    executablePath: CHROMIUM,
    headless: true,
    args: [
      '--headless',
      '--no-sandbox',
      '--disable-gpu',
      '--disable-quic',
      '--no-first-run',
      '--disable-background-networking',
      '--disable-component-update',
      '--disable-sync',
    ],
  });
  return {
    context,
    async close() {
      await context.close();
      rmSync(profile, { recursive: true, force: true });
    },
  };
}
