/** Temporary store folders for one test file, removed when the file's tests are done. */
import { tempDir } from '../../helpers/temp-dir.js';

export function useTempDirs(prefix = 'svc-store-'): () => string {
  return () => tempDir(prefix);
}
