/**
 * PATCH /customers/{customerId}: supplies or changes fields at once (200), except a contact change
 * that would rename the customer's OTP credentials, which is the signed retry of contact-change.ts.
 * A deleted customer is 409 CONFLICT (the description declares 410 for DELETE only).
 */
import { UMA_ADDRESS_PATTERN } from '../../../service/identifiers.js';
import type { EmulatorContext } from '../../kernel/context.js';
import { conflict } from '../../kernel/errors.js';
import { Fields } from '../../kernel/fields.js';
import type { Reply, Route } from '../../kernel/router.js';
import { contactChangeOf, signedContactChange, tiedCredentials } from './contact-change.js';
import {
  findCustomerByUma,
  kycAtCreation,
  customers,
  liveCustomerOr4xx,
  renderCustomer,
  setCustomerStatus,
  type CustomerRec,
} from './customers.js';
import { defined, readAddress, readBusinessInfo, readContact, readIndividual } from './fields.js';
import { withArticle } from '../../../words.js';

export function checkUmaFree(emu: EmulatorContext, umaAddress: string | undefined, self?: string): void {
  const holder = umaAddress === undefined ? undefined : findCustomerByUma(emu, umaAddress);
  if (holder && holder.id !== self)
    throw conflict('UMA_ADDRESS_EXISTS', `umaAddress ${umaAddress} is already taken by another customer`);
}

interface CustomerUpdate {
  contact: { email?: string; phoneNumber?: string };
  umaAddress?: string;
  changes: Partial<CustomerRec>;
}

/**
 * The body's emulator rules, all at once (400 INVALID_INPUT listing every bad field). Its shape
 * (customerType's presence and enum, formats, patterns, ISO countries, the address's required
 * fields) is checked before this runs; read here are the customer's own type, one contact change
 * at a time, the UMA address's form, and the readers' lengths.
 */
function readUpdate(body: Record<string, unknown>, customer: CustomerRec): CustomerUpdate {
  const f = new Fields(body);
  f.string('customerType', {
    check: (v) =>
      v === customer.customerType
        ? undefined
        : `customerType must be ${customer.customerType}: ${customer.id} is ${withArticle(customer.customerType)} customer`,
  });
  const contact = readContact(f);
  if (contact.email !== undefined && contact.phoneNumber !== undefined) {
    f.add('phoneNumber', 'email and phoneNumber cannot change in one request: send them in two');
  }
  const umaAddress = f.string('umaAddress', { pattern: UMA_ADDRESS_PATTERN });
  const changes =
    customer.customerType === 'BUSINESS'
      ? defined({ businessInfo: readBusinessInfo(f), address: readAddress(f) })
      : readIndividual(f);
  f.done();
  return { contact, ...defined({ umaAddress }), changes: changes as Partial<CustomerRec> };
}

function applyUpdate(emu: EmulatorContext, customer: CustomerRec, update: CustomerUpdate): Reply {
  checkUmaFree(emu, update.umaAddress, customer.id);
  const { businessInfo, ...rest } = update.changes;
  // A new address or number is not the verified one: its channel is PENDING again.
  const verification = customer.contactVerification;
  if (verification?.email && update.contact.email !== undefined && update.contact.email !== customer.email)
    verification.email = 'PENDING';
  if (
    verification?.phone &&
    update.contact.phoneNumber !== undefined &&
    update.contact.phoneNumber !== customer.phoneNumber
  )
    verification.phone = 'PENDING';
  Object.assign(customer, update.contact, rest, defined({ umaAddress: update.umaAddress }), { updatedAt: emu.iso() });
  if (businessInfo) customer.businessInfo = { ...customer.businessInfo, ...businessInfo };
  emu.table(customers).set(customer.id, customer);
  // An individual created without a name gets its row of the KYC table from its first name.
  if (
    customer.customerType === 'INDIVIDUAL' &&
    customer.kycDecidedBy === undefined &&
    customer.fullName !== undefined
  ) {
    customer.kycDecidedBy = customer.fullName;
    setCustomerStatus(emu, customer, kycAtCreation(customer.fullName));
  }
  return { status: 200, body: renderCustomer(emu, customer) };
}

const isSignedStep = (req: { header(name: string): string | undefined }) =>
  req.header('service-wallet-signature') !== undefined || req.header('request-id') !== undefined;

export const updateCustomer: Route = {
  method: 'PATCH',
  path: '/customers/:id(Customer)',
  permission: 'MANAGE',
  async handler(req, emu) {
    const customer = liveCustomerOr4xx(emu, req.params.id!, 'conflict');
    const update = readUpdate(req.json(), customer);
    checkUmaFree(emu, update.umaAddress, customer.id);
    const change = contactChangeOf(customer, update.contact);
    // A retry always goes to the signed flow: when the tied credentials are gone meanwhile it answers
    // 409 EMAIL_OTP_CREDENTIAL_SET_CHANGED rather than applying an unsigned change, and a re-send
    // after the change was applied gets the kept answer rather than a second update.
    if (isSignedStep(req) || (change && tiedCredentials(emu, customer, change.field).length > 0)) {
      return signedContactChange(emu, req, customer, change, () => applyUpdate(emu, customer, update));
    }
    return applyUpdate(emu, customer, update);
  },
};
