// The emulator of test/bench/commands.mjs, in a process of its own: it sends the parent what the
// commands need to reach it (base URL, API credentials, the fixture account and credential).
import { serveEmulatorToParent } from './emulator-child.mjs';

await serveEmulatorToParent((emu) => ({
  apiTokenId: emu.apiTokenId,
  apiClientSecret: emu.apiClientSecret,
  fixtures: { accountId: emu.fixtures.accountId, credentialId: emu.fixtures.credentialId },
}));
