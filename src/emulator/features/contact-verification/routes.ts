/**
 * Contact verification (the description's tag of that name): for a customer whose region requires
 * it, `POST /customers/{id}/verify-email` (or `-phone`) "sends" a code (nothing leaves the
 * emulator; the sandbox code is fixed) and `…/confirm {code}` marks the channel VERIFIED and
 * answers the customer. A customer without the requirement, or a channel already VERIFIED, is 409
 * CONFLICT (the spec's condition mapping 4). Confirming before a code was sent, after it lapsed,
 * or with another code is 400 INVALID_INPUT naming `code`. A deleted customer is 410.
 */
import { SANDBOX_SCA_CODE, SCA_TIMINGS } from '../../../service/index.js';
import type { EmulatorContext } from '../../kernel/context.js';
import { conflict, invalidInput } from '../../kernel/errors.js';
import { Fields } from '../../kernel/fields.js';
import type { Route } from '../../kernel/router.js';
import { memoryTable } from '../../kernel/tables.js';
import { type CustomerRec, customers, liveCustomerOr4xx, renderCustomer } from '../customers/customers.js';

type Channel = 'email' | 'phone';

/** Codes sent and not yet used, by `<customerId> <channel>`: when each lapses. */
export const sentCodes = memoryTable<{ expiresAtMs: number }>('contactVerificationCodes');

/** The customer if this channel still needs verifying, else the 409 the description gives. */
function pendingChannel(emu: EmulatorContext, id: string, channel: Channel): CustomerRec {
  const customer = liveCustomerOr4xx(emu, id, 'conflict');
  const status = customer.contactVerification?.[channel];
  if (status === undefined)
    throw conflict(
      'CONFLICT',
      `Customer ${id} needs no ${channel} verification: only customers of a region that requires it (region in the EEA) do`,
    );
  if (status === 'VERIFIED') throw conflict('CONFLICT', `The ${channel} of customer ${id} is already verified`);
  return customer;
}

function send(channel: Channel): Route {
  return {
    method: 'POST',
    path: `/customers/:id(Customer)/verify-${channel}`,
    permission: 'MANAGE',
    handler(req, emu) {
      const customer = pendingChannel(emu, req.params.id!, channel);
      // Each send replaces the last one (the description: re-POST to resend).
      emu.table(sentCodes).set(`${customer.id} ${channel}`, { expiresAtMs: emu.now() + SCA_TIMINGS.contactCodeMs });
      return { status: 204 };
    },
  };
}

function confirm(channel: Channel): Route {
  return {
    method: 'POST',
    path: `/customers/:id(Customer)/verify-${channel}/confirm`,
    permission: 'MANAGE',
    handler(req, emu) {
      // code is required by the description, checked before this runs; its length is the emulator's.
      const f = new Fields(req.json());
      const code = f.string('code', { minLength: 1, maxLength: 16 });
      f.done();
      const customer = pendingChannel(emu, req.params.id!, channel);
      const key = `${customer.id} ${channel}`;
      const sent = emu.table(sentCodes).get(key);
      const problem = !sent
        ? `no code was sent: call POST /customers/${customer.id}/verify-${channel} first`
        : sent.expiresAtMs <= emu.now()
          ? `the code has expired: call POST /customers/${customer.id}/verify-${channel} for a new one`
          : code !== SANDBOX_SCA_CODE
            ? `code is not the one sent (in the sandbox it is always ${SANDBOX_SCA_CODE})`
            : undefined;
      if (problem) throw invalidInput([{ field: 'code', message: problem }], `Invalid or expired code: ${problem}`);
      emu.table(sentCodes).delete(key);
      customer.contactVerification = { ...customer.contactVerification, [channel]: 'VERIFIED' };
      customer.updatedAt = emu.iso();
      emu.table(customers).set(customer.id, customer);
      return { status: 200, body: renderCustomer(emu, customer) };
    },
  };
}

export const contactVerificationRoutes: Route[] = [send('email'), confirm('email'), send('phone'), confirm('phone')];
