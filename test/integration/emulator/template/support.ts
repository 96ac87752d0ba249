/**
 * The template area's test helpers (each area folder keeps its own support.ts; emulator/support.ts
 * holds what every area shares). The template is not in features.ts, so it runs alone on the kernel.
 */
import type { RunningEmulator } from '../../../../src/emulator/index.js';
import { startAreas } from '../../../../src/emulator/index.js';
import { resolveOptions } from '../../../../src/emulator/options.js';
import { templateFeature } from '../../../../src/emulator/template/index.js';
import { caller, type TestEmulator } from '../support.js';

export type TemplateEmulator = Omit<TestEmulator, 'emu'> & { emu: Awaited<ReturnType<typeof start>> };

const start = (statePath?: string) => startAreas([templateFeature], resolveOptions({ port: 0 }), statePath);

export async function templateEmulator(statePath?: string): Promise<TemplateEmulator> {
  const emu = await start(statePath);
  return { emu, call: caller(emu as unknown as RunningEmulator), close: () => emu.close() };
}
