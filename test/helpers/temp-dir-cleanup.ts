/**
 * A vitest setup file: after each test file (and its own afterAll hooks, which stop the servers
 * and emulators that write into these folders), the folders its tests made with tempDir() go.
 */
import { afterAll } from 'vitest';
import { removeTempDirs } from './temp-dir.js';

afterAll(removeTempDirs);
