/**
 * `svc emulator open`: opens the running emulator's dashboard in the browser. Its URL (with the
 * token of this start) comes from the emulator itself, asked with the current profile's
 * credentials; when no browser can be started, the URL is printed to open by hand.
 */
import type { Deps } from '../deps.js';
import type { OptionsOf } from '../verb.js';
import type * as verbs from './verbs.js';
import { openUrl, requireOpener } from '../cards/open-url.js';
import { getFromEmulator } from './emulator-endpoint.js';

export async function run(opts: OptionsOf<typeof verbs.open>, deps: Deps): Promise<void> {
  const { ui } = deps;
  const { dashboardUrl } = (await getFromEmulator<{ dashboardUrl: string }>(deps, '/_emulator/dashboard')).body;
  let opened = false;
  let why = '--print was given';
  if (!opts.print) {
    try {
      await openUrl(dashboardUrl, deps.env, requireOpener(deps.env));
      opened = true;
    } catch (error) {
      why = (error as Error).message;
    }
  }
  ui.result({ dashboardUrl, opened }, () => {
    if (opened) return ui.success(`Opened the emulator's dashboard in the browser: ${dashboardUrl}`);
    if (!opts.print) ui.info(`No browser opened (${why}); open this address yourself:`);
    ui.out(dashboardUrl);
  });
}
