/**
 * The platform's own id (the description's PlatformConfig `id`). The description names it as the
 * customer of the platform's own payments: "to filter to transactions made on behalf of the
 * platform, specify the platform ID as the customer ID" (GET /transactions). Made on first use and
 * kept in the state file, so a restart with --state keeps it.
 */
import type { EmulatorContext } from '../../kernel/context.js';
import { newId } from '../../kernel/ids.js';

export function platformId(emu: EmulatorContext): string {
  let id = emu.core.config.id;
  if (id === undefined) {
    id = newId('PlatformConfig');
    emu.core.config.id = id;
    emu.changed();
  }
  return id;
}
