/** The library entry exports `svc api` and `svc trigger` for programmatic use, working end to end. */
import { afterAll, beforeAll, expect, it } from 'vitest';
import * as svc from '../../../src/index.js';

let emu: svc.RunningEmulator;
beforeAll(async () => (emu = await svc.startEmulator({ port: 0 })));
afterAll(() => emu.close());

it('runs a scenario and a typed call through the package entry', async () => {
  const client = svc.createClient({
    baseUrl: emu.baseUrl,
    auth: { kind: 'basic', tokenId: emu.apiTokenId, secret: emu.apiClientSecret },
  });
  const report = await svc.runScenario(client, svc.findScenario('kyc.rejected')!, {
    wait: false,
    sleep: async () => {},
  });
  expect(report.observed.kycStatus).toBe('REJECTED');
  const body = await svc.buildFields(
    [
      { kind: 'raw', text: 'customerType=INDIVIDUAL' },
      { kind: 'raw', text: 'fullName=Lib 003' },
    ],
    async () => '',
  );
  const { response } = await svc.apiCall(client, {
    method: 'POST',
    path: svc.normalizePath('customers'),
    body: JSON.stringify(body),
    signer: false,
  });
  expect((response.body as { kycStatus: string }).kycStatus).toBe('UNVERIFIED');
});
