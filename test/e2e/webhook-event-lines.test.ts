/**
 * `svc webhook listen` shows the emulator's invitation and bulk-upload events on one readable line
 * each, like card events: a spawned listener is the emulator's webhook endpoint; an invitation is
 * claimed and a CSV imported (on the emulator's clock) through the API.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startEmulator, type RunningEmulator } from '../../src/emulator/index.js';
import { multipartForm } from '../../src/trigger/recipes/documents.js';
import { tempConfigDir } from '../helpers/spawn-svc.js';
import { caller } from '../integration/emulator/support.js';
import { saveLocalProfile } from '../integration/webhook/helpers.js';
import { spawnListener, type SpawnedListener } from '../integration/webhook/spawn-listener.js';

let emu: RunningEmulator;
let call: ReturnType<typeof caller>;
let listener: SpawnedListener;
const configDir = tempConfigDir();

beforeAll(async () => {
  emu = await startEmulator({ port: 0 });
  call = caller(emu);
  saveLocalProfile(configDir, emu);
  listener = await spawnListener(
    ['webhook', 'listen', '--port', '0', '--events', 'INVITATION.*,BULK_UPLOAD.*'],
    configDir,
  );
}, 30_000);

afterAll(async () => {
  listener?.kill();
  await emu?.close();
});

/** The listener's lines for this type once the emulator has delivered one. */
async function shown(type: string): Promise<string[]> {
  for (let n = 1; ; n++) {
    const seen = (await listener.waitForLines(n)).filter((l) => l.includes(` ${type} `));
    if (seen.length > 0) return seen;
  }
}

describe('svc webhook listen: invitation and bulk-upload lines', () => {
  it('INVITATION.CLAIMED: the code, who claimed it, who invited, and the amount to send', async () => {
    const created = await call('POST', '/invitations', {
      body: { inviterUma: emu.fixtures.umaAddress, amountToSend: 12550 },
    });
    expect(created.status, created.text).toBe(201);
    const code: string = created.body.code;
    const claimed = await call('POST', `/invitations/${code}/claim`, { body: { inviteeUma: '$bob@uma.example' } });
    expect(claimed.status, claimed.text).toBe(200);
    const [line] = await shown('INVITATION.CLAIMED');
    const inviter = emu.fixtures.umaAddress.replace(/[$.]/g, '\\$&');
    expect(line).toMatch(
      new RegExp(
        `INVITATION\\.CLAIMED  ${code}  CLAIMED by \\$bob@uma\\.example, invited by ${inviter} \\(125\\.50 USD to send\\)  \\[Webhook:\\S+\\]  verified$`,
      ),
    );
  });

  it('BULK_UPLOAD.COMPLETED: the job, how many rows were imported and failed, and the first failure', async () => {
    const stamp = Date.now();
    const csv = [
      'umaAddress,platformCustomerId,customerType,fullName,birthDate,addressLine1,city,state,postalCode,country,businessLegalName',
      `$jane.${stamp}@uma.example,jane-${stamp},INDIVIDUAL,Jane Doe,1990-01-15,123 Main St,San Francisco,CA,94105,US,`,
      `$acme.${stamp}@uma.example,acme-${stamp},BUSINESS,,,400 Commerce Way,Austin,TX,78701,US,`,
    ].join('\n');
    const form = multipartForm({}, { name: 'customers.csv', type: 'text/csv', content: csv });
    const accepted = await call('POST', '/customers/bulk/csv', {
      body: form.body,
      headers: { 'content-type': form.contentType },
    });
    expect(accepted.status, accepted.text).toBe(202);
    const jobId: string = accepted.body.jobId;
    for (let i = 0; i < 10 && (await call('GET', `/customers/bulk/jobs/${jobId}`)).body.status !== 'COMPLETED'; i++) {
      emu.testing.advanceClock(1000);
    }
    const [line] = await shown('BULK_UPLOAD.COMPLETED');
    expect(line).toMatch(
      new RegExp(
        `BULK_UPLOAD\\.COMPLETED  ${jobId}  COMPLETED 1 of 2 imported, 1 failed: Row 3: .*businessLegalName.*  \\[Webhook:\\S+\\]  verified$`,
      ),
    );
  });
});
