import { defineConfig } from 'vitest/config';
import { fileURLToPath } from 'node:url';

const root = fileURLToPath(new URL('..', import.meta.url));

export default defineConfig({
  root,
  test: {
    include: ['test/**/*.test.ts'],
    // The build and the contract check, then a temporary folder of the run's own: anything a test
    // leaves in it fails the run (test/helpers/private-tmpdir.ts).
    globalSetup: ['test/helpers/global-setup.ts', 'test/helpers/private-tmpdir.ts'],
    // Removes the folders each test file made with tempDir() (test/helpers/temp-dir.ts).
    setupFiles: ['test/helpers/temp-dir-cleanup.ts'],
    testTimeout: 30_000,
    hookTimeout: 30_000,
    // Spawned CLIs and servers share two cores on CI machines; keep the pool small.
    pool: 'forks',
    maxWorkers: 3,
  },
});
