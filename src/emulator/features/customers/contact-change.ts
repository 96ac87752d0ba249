/**
 * The signed branch of PATCH /customers/{customerId} (the public API description): changing the
 * email of a customer whose embedded wallet has an EMAIL_OTP credential, or its phoneNumber when
 * one has SMS_OTP, changes what those credentials send codes to. So it is the two-step signed
 * retry: 202 SignedRequestChallenge, then the same body stamped by an active session of any of the
 * customer's wallets; the retry applies the change and renames every tied OTP credential at once.
 * 409 when another credential already uses the new value, or when the tied credentials changed
 * between the 202 and the retry (EMAIL_OTP_CREDENTIAL_SET_CHANGED): nothing is applied then.
 */
import type { EmulatorContext } from '../../kernel/context.js';
import { conflict } from '../../kernel/errors.js';
import type { Reply, Req } from '../../kernel/router.js';
import { signedFlow } from '../../signed-retry/flow.js';
import { accounts, byCustomer } from '../accounts/accounts.js';
import { authMethods, byOtpContact, credentialsOf, type AuthMethodRec } from '../auth/credentials.js';
import type { CustomerRec } from './customers.js';

export interface ContactChange {
  field: 'email' | 'phoneNumber';
  value: string;
}

const OTP_TYPE = { email: 'EMAIL_OTP', phoneNumber: 'SMS_OTP' } as const;
const ACTIVITY = {
  email: 'ACTIVITY_TYPE_UPDATE_USER_EMAIL',
  phoneNumber: 'ACTIVITY_TYPE_UPDATE_USER_PHONE_NUMBER',
} as const;

function walletsOf(emu: EmulatorContext, customer: CustomerRec): string[] {
  return emu
    .table(accounts)
    .where(byCustomer, customer.id)
    .filter((a) => a.type === 'EMBEDDED_WALLET')
    .map((a) => a.id);
}

/** The OTP credentials on the customer's wallets that a change of this contact field renames. */
export function tiedCredentials(
  emu: EmulatorContext,
  customer: CustomerRec,
  field: ContactChange['field'],
): AuthMethodRec[] {
  return walletsOf(emu, customer).flatMap((wallet) =>
    credentialsOf(emu, wallet).filter((m) => m.type === OTP_TYPE[field]),
  );
}

/** The contact change a PATCH body makes, if it changes one (the same value again changes nothing). */
export function contactChangeOf(
  customer: CustomerRec,
  contact: { email?: string; phoneNumber?: string },
): ContactChange | undefined {
  if (contact.email !== undefined && contact.email !== customer.email) return { field: 'email', value: contact.email };
  if (contact.phoneNumber !== undefined && contact.phoneNumber !== customer.phoneNumber)
    return { field: 'phoneNumber', value: contact.phoneNumber };
  return undefined;
}

/** 409 when an OTP credential outside the tied set already sends its codes to the new value. */
function checkValueFree(emu: EmulatorContext, change: ContactChange, tied: AuthMethodRec[]): void {
  const mine = new Set(tied.map((m) => m.id));
  const taken = emu
    .table(authMethods)
    .where(byOtpContact, `${OTP_TYPE[change.field]} ${change.value}`)
    .find((m) => !mine.has(m.id));
  if (!taken) return;
  // The description names a code for email only; a phone number in use is the generic CONFLICT.
  if (change.field === 'email')
    throw conflict(
      'EMAIL_OTP_EMAIL_ALREADY_EXISTS',
      `${change.value} is already the email of another EMAIL_OTP credential`,
    );
  throw conflict('CONFLICT', `${change.value} is already the phone number of another SMS_OTP credential`);
}

const idsOf = (methods: AuthMethodRec[]) => methods.map((m) => m.id).sort();

/** The change a challenge was issued for, as bound into its payload. */
function boundChange(payloadToSign: string): { change: ContactChange; credentialIds: string[] } {
  const { parameters } = JSON.parse(payloadToSign) as {
    parameters: { email?: string; phoneNumber?: string; credentialIds: string[] };
  };
  const field = parameters.email !== undefined ? 'email' : 'phoneNumber';
  return { change: { field, value: parameters[field]! }, credentialIds: parameters.credentialIds };
}

/**
 * Runs the signed step this request is; `apply` makes the whole update (every field of the body)
 * and is called only by an accepted retry, after the checks. `change` is the change this body
 * makes now: none on a re-send after it was applied (the flow answers the kept reply then).
 */
export function signedContactChange(
  emu: EmulatorContext,
  req: Req,
  customer: CustomerRec,
  change: ContactChange | undefined,
  apply: () => Reply,
): Promise<Reply> {
  const wallets = walletsOf(emu, customer);
  const tied = change ? tiedCredentials(emu, customer, change.field) : [];
  return signedFlow(emu, req, {
    kind: 'customer-contact-change',
    resourceId: customer.id,
    accountId: tied[0]?.accountId ?? wallets[0]!,
    // The retry must repeat every field of the first call, not only the contact one.
    binding: JSON.stringify(req.json()),
    bindingField: 'body',
    begin() {
      // update.ts starts the flow without signature headers only for a change with tied credentials.
      checkValueFree(emu, change!, tied);
      return {
        activityType: ACTIVITY[change!.field],
        parameters: { customerId: customer.id, [change!.field]: change!.value, credentialIds: idsOf(tied) },
        signerAccountIds: wallets,
      };
    },
    // A deleted customer was answered 410 before the flow (update.ts); nothing else ends the target.
    checkTarget() {},
    async settle(pending) {
      const bound = boundChange(pending.payloadToSign);
      const now = tiedCredentials(emu, customer, bound.change.field);
      if (JSON.stringify(idsOf(now)) !== JSON.stringify(bound.credentialIds)) {
        throw conflict(
          'EMAIL_OTP_CREDENTIAL_SET_CHANGED',
          'The OTP credentials tied to this customer changed since the challenge; call again without signature headers',
        );
      }
      checkValueFree(emu, bound.change, now);
      const reply = apply();
      const at = emu.iso();
      for (const credential of now)
        emu.table(authMethods).set(credential.id, { ...credential, nickname: bound.change.value, updatedAt: at });
      return reply;
    },
  });
}
