/** `svc version`: the version; with --json also Node.js and the platform, what a bug report needs. */
import type { OptionsOf } from '../verb.js';
import type * as verbs from './verbs.js';
import type { Deps } from '../deps.js';
import { VERSION } from '../version.js';

export type VersionOptions = OptionsOf<typeof verbs.version>;

export async function run(_opts: VersionOptions, deps: Deps): Promise<void> {
  const { ui } = deps;
  ui.result({ version: VERSION, node: process.versions.node, platform: process.platform, arch: process.arch }, () =>
    ui.out(VERSION),
  );
}
