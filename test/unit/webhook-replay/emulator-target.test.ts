/** Which base URLs `svc webhook replay` treats as the emulator: loopback, or the `local` profile's address. */
import { describe, expect, it } from 'vitest';
import { mayBeEmulator } from '../../../src/webhook-replay/replay.js';
import { emulatorOnly } from '../../../commands/webhook/replay.js';

describe('mayBeEmulator', () => {
  it.each([
    'http://127.0.0.1:4010/2025-10-13',
    'http://127.8.9.10:1/2025-10-13',
    'http://localhost:4010/2025-10-13',
    'http://[::1]:4010/2025-10-13',
  ])('%s is loopback: yes, without reading the profile', async (url) => {
    let read = false;
    expect(await mayBeEmulator(url, async () => ((read = true), undefined))).toBe(true);
    expect(read).toBe(false);
  });

  it("another host is the emulator only when it is the local profile's address", async () => {
    const lan = 'http://192.168.1.20:4010/2025-10-13';
    expect(await mayBeEmulator(lan, async () => 'http://192.168.1.20:4010/2025-10-13')).toBe(true);
    expect(await mayBeEmulator(lan, async () => 'http://192.168.1.20:4011/2025-10-13')).toBe(false);
    expect(await mayBeEmulator(lan, async () => undefined)).toBe(false);
    expect(await mayBeEmulator('https://api.service.example/2025-10-13', async () => 'not a url')).toBe(false);
  });

  it('the refusal names the base URL flag and the way out', () => {
    const error = emulatorOnly('https://api.service.example/2025-10-13');
    expect(error.input).toBe('baseUrl');
    expect(error.message).toContain('https://api.service.example is not the emulator');
    expect(error.hint).toContain('svc emulator start');
  });
});
