/** POST /customers, GET /customers (paged), GET and PATCH /customers/{customerId}. */
import { UMA_ADDRESS_PATTERN } from '../../../service/identifiers.js';
import { conflict } from '../../kernel/errors.js';
import { Fields } from '../../kernel/fields.js';
import { pageOf, readPage } from '../../kernel/paging.js';
import type { Route } from '../../kernel/router.js';
import type { EmulatorContext } from '../../kernel/context.js';
import { customerOr404, customers, findCustomerByUma, insertCustomer, kycAtCreation, renderCustomer, setCustomerStatus, type CustomerRec } from './customers.js';
import { defined, readAddress, readBusinessInfo, readContact, readIndividual } from './fields.js';

const TYPES = ['INDIVIDUAL', 'BUSINESS'] as const;

function checkUmaFree(emu: EmulatorContext, umaAddress: string | undefined, self?: string): void {
  const holder = umaAddress === undefined ? undefined : findCustomerByUma(emu, umaAddress);
  if (holder && holder.id !== self) throw conflict('UMA_ADDRESS_EXISTS', `umaAddress ${umaAddress} is already taken by another customer`);
}

const create: Route = {
  method: 'POST',
  path: '/customers',
  handler(req, emu) {
    const f = new Fields(req.json());
    const customerType = f.string('customerType', { required: true, enum: TYPES }) as CustomerRec['customerType'] | undefined;
    const common = defined({
      ...readContact(f),
      umaAddress: f.string('umaAddress', { pattern: UMA_ADDRESS_PATTERN }),
      platformCustomerId: f.string('platformCustomerId', { minLength: 1, maxLength: 128 }),
    });
    const own = customerType === 'BUSINESS'
      ? defined({ businessInfo: readBusinessInfo(f, true), address: readAddress(f) })
      : readIndividual(f);
    f.done();
    checkUmaFree(emu, common.umaAddress);
    if (common.platformCustomerId && emu.table(customers).find((c) => c.platformCustomerId === common.platformCustomerId)) {
      throw conflict('CONFLICT', `platformCustomerId ${common.platformCustomerId} is already used by another customer`);
    }
    const status = customerType === 'BUSINESS'
      ? { kybStatus: 'UNVERIFIED' as const }
      : { kycStatus: kycAtCreation((own as { fullName?: string }).fullName) };
    const customer = insertCustomer(emu, { customerType: customerType!, ...common, ...own, ...status });
    return { status: 201, body: renderCustomer(customer) };
  },
};

const update: Route = {
  method: 'PATCH',
  path: '/customers/:id(Customer)',
  handler(req, emu) {
    const customer = customerOr404(emu, req.params.id!);
    const f = new Fields(req.json());
    f.string('customerType', {
      required: true,
      enum: TYPES,
      check: (v) => (v === customer.customerType ? undefined : `customerType must be ${customer.customerType}: ${customer.id} is a ${customer.customerType} customer`),
    });
    const contact = readContact(f);
    if (contact.email !== undefined && contact.phoneNumber !== undefined) {
      f.add('phoneNumber', 'email and phoneNumber cannot change in one request: send them in two');
    }
    const umaAddress = f.string('umaAddress', { pattern: UMA_ADDRESS_PATTERN });
    const changes = customer.customerType === 'BUSINESS'
      ? defined({ businessInfo: readBusinessInfo(f, false), address: readAddress(f) })
      : readIndividual(f);
    f.done();
    checkUmaFree(emu, umaAddress, customer.id);
    const { businessInfo, ...rest } = changes as { businessInfo?: CustomerRec['businessInfo'] } & Partial<CustomerRec>;
    Object.assign(customer, contact, rest, defined({ umaAddress }), { updatedAt: emu.iso() });
    if (businessInfo) customer.businessInfo = { ...customer.businessInfo, ...businessInfo };
    emu.table(customers).set(customer.id, customer);
    // An individual created without a name gets its row of the KYC table from its first name.
    if (customer.customerType === 'INDIVIDUAL' && customer.kycDecidedBy === undefined && customer.fullName !== undefined) {
      customer.kycDecidedBy = customer.fullName;
      setCustomerStatus(emu, customer, kycAtCreation(customer.fullName));
    }
    return { status: 200, body: renderCustomer(customer) };
  },
};

const list: Route = {
  method: 'GET',
  path: '/customers',
  handler(req, emu) {
    const f = new Fields(Object.fromEntries(req.query));
    const customerType = f.string('customerType', { enum: TYPES });
    const platformCustomerId = f.string('platformCustomerId');
    const umaAddress = f.string('umaAddress');
    const bounds = (['createdAfter', 'createdBefore', 'updatedAfter', 'updatedBefore'] as const).map((name) =>
      f.string(name, { format: 'date-time', check: (v) => (Number.isNaN(Date.parse(v)) ? `${name} must be a date-time` : undefined) }));
    const paging = readPage(f);
    f.done();
    const [createdAfter, createdBefore, updatedAfter, updatedBefore] = bounds.map((b) => (b === undefined ? undefined : Date.parse(b)));
    const picked = emu.table(customers).filter((c) =>
      (!customerType || c.customerType === customerType)
      && (!platformCustomerId || c.platformCustomerId === platformCustomerId)
      && (!umaAddress || c.umaAddress.toLowerCase() === umaAddress.toLowerCase())
      && (createdAfter === undefined || Date.parse(c.createdAt) > createdAfter)
      && (createdBefore === undefined || Date.parse(c.createdAt) < createdBefore)
      && (updatedAfter === undefined || Date.parse(c.updatedAt) > updatedAfter)
      && (updatedBefore === undefined || Date.parse(c.updatedAt) < updatedBefore));
    return { status: 200, body: pageOf(picked.map(renderCustomer), paging) };
  },
};

const get: Route = {
  method: 'GET',
  path: '/customers/:id(Customer)',
  handler(req, emu) {
    return { status: 200, body: renderCustomer(customerOr404(emu, req.params.id!)) };
  },
};

export const customerRoutes: Route[] = [create, list, get, update];
