/**
 * The store for commands that need no network (config, session show/use): kept apart from
 * connect.ts so that opening the store never loads the HTTP client.
 */
import type { Deps } from './deps.js';
import { openStore, type Store } from '../src/store/index.js';

export function openDepsStore(deps: Pick<Deps, 'env'>): Store {
  return openStore({ env: deps.env });
}
