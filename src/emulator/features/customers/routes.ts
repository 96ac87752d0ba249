/**
 * POST /customers, GET /customers (paged), GET and DELETE /customers/{customerId}; PATCH is in
 * update.ts.
 */
import { parseDateTime } from '../../../date-time.js';
import { UMA_ADDRESS_PATTERN } from '../../../service/identifiers.js';
import { callerSees } from '../../kernel/agent-scope.js';
import { HttpError, conflict } from '../../kernel/errors.js';
import { Fields } from '../../kernel/fields.js';
import { pageOf, readPage } from '../../kernel/paging.js';
import type { Route } from '../../kernel/router.js';
import {
  byPlatformCustomerId,
  customerOr404,
  customers,
  insertCustomer,
  kycAtCreation,
  renderCustomer,
  type CustomerRec,
} from './customers.js';
import { countryRules, defined, readAddress, readBusinessInfo, readContact, readIndividual } from './fields.js';
import { needsContactVerification } from './region.js';
import { checkUmaFree, updateCustomer } from './update.js';

const create: Route = {
  method: 'POST',
  path: '/customers',
  permission: 'MANAGE',
  handler(req, emu) {
    // An agent is bound to its own customer (spec, Authentication 2): a customer it made would not be its own.
    if (req.principal.kind === 'agent')
      throw new HttpError(
        403,
        'FORBIDDEN',
        'An agent token is bound to its customer and cannot create customers; use the platform credentials',
      );
    const f = new Fields(req.json());
    // customerType is the description's tag, checked with the body's shape before this runs.
    const customerType = f.string('customerType') as CustomerRec['customerType'] | undefined;
    const common = defined({
      ...readContact(f),
      umaAddress: f.string('umaAddress', { pattern: UMA_ADDRESS_PATTERN }),
      platformCustomerId: f.string('platformCustomerId', { minLength: 1, maxLength: 128 }),
      region: f.string('region', countryRules),
    });
    // The description: email and phone are required where they are verified before identity verification.
    if (needsContactVerification(common.region)) {
      for (const field of ['email', 'phoneNumber'] as const) {
        if (common[field] === undefined && !f.has(field))
          f.add(field, `${field} is required for a customer in region ${common.region} (it is verified before KYC)`);
      }
    }
    const own =
      customerType === 'BUSINESS'
        ? defined({ businessInfo: readBusinessInfo(f), address: readAddress(f) })
        : readIndividual(f);
    // The description's create request has no owners (BusinessCustomer only lists them in answers):
    // saying so beats dropping them silently.
    if (f.raw('beneficialOwners') !== undefined) {
      f.add(
        'beneficialOwners',
        'beneficialOwners cannot be sent with the customer: create each owner with POST /beneficial-owners {customerId, …}',
      );
    }
    f.done();
    checkUmaFree(emu, common.umaAddress);
    if (common.platformCustomerId && emu.table(customers).first(byPlatformCustomerId, common.platformCustomerId)) {
      throw conflict('CONFLICT', `platformCustomerId ${common.platformCustomerId} is already used by another customer`);
    }
    const status =
      customerType === 'BUSINESS'
        ? { kybStatus: 'UNVERIFIED' as const }
        : { kycStatus: kycAtCreation((own as { fullName?: string }).fullName) };
    const contactVerification = needsContactVerification(common.region)
      ? { contactVerification: { email: 'PENDING' as const, phone: 'PENDING' as const } }
      : {};
    const customer = insertCustomer(emu, {
      customerType: customerType!,
      ...common,
      ...own,
      ...status,
      ...contactVerification,
    });
    return { status: 201, body: renderCustomer(emu, customer) };
  },
};

const list: Route = {
  method: 'GET',
  path: '/customers',
  permission: 'VIEW',
  handler(req, emu) {
    // The query's types, enums and date-times are the description's, checked before this runs.
    const f = new Fields(Object.fromEntries(req.query));
    const customerType = f.string('customerType');
    const platformCustomerId = f.string('platformCustomerId');
    const umaAddress = f.string('umaAddress');
    const includingDeleted = f.string('isIncludingDeleted') === 'true';
    const bounds = (['createdAfter', 'createdBefore', 'updatedAfter', 'updatedBefore'] as const).map((name) =>
      f.string(name),
    );
    const paging = readPage(f);
    f.done();
    const [createdAfter, createdBefore, updatedAfter, updatedBefore] = bounds.map((b) =>
      b === undefined ? undefined : parseDateTime(b),
    );
    const sees = callerSees(emu, req);
    const picked = emu
      .table(customers)
      .filter(
        (c) =>
          sees(c) &&
          (includingDeleted || !c.isDeleted) &&
          (!customerType || c.customerType === customerType) &&
          (!platformCustomerId || c.platformCustomerId === platformCustomerId) &&
          (!umaAddress || c.umaAddress.toLowerCase() === umaAddress.toLowerCase()) &&
          (createdAfter === undefined || Date.parse(c.createdAt) > createdAfter) &&
          (createdBefore === undefined || Date.parse(c.createdAt) < createdBefore) &&
          (updatedAfter === undefined || Date.parse(c.updatedAt) > updatedAfter) &&
          (updatedBefore === undefined || Date.parse(c.updatedAt) < updatedBefore),
      );
    return {
      status: 200,
      body: pageOf(
        picked.map((c) => renderCustomer(emu, c)),
        paging,
      ),
    };
  },
};

const get: Route = {
  method: 'GET',
  path: '/customers/:id(Customer)',
  permission: 'VIEW',
  handler(req, emu) {
    return { status: 200, body: renderCustomer(emu, customerOr404(emu, req.params.id!)) };
  },
};

/** Soft delete (the description): 200 with the customer flagged `isDeleted`; again, 410 CUSTOMER_DELETED. */
const remove: Route = {
  method: 'DELETE',
  path: '/customers/:id(Customer)',
  permission: 'MANAGE',
  handler(req, emu) {
    const customer = customerOr404(emu, req.params.id!);
    if (customer.isDeleted) throw new HttpError(410, 'CUSTOMER_DELETED', `Customer ${customer.id} was deleted already`);
    Object.assign(customer, { isDeleted: true, updatedAt: emu.iso() });
    emu.table(customers).set(customer.id, customer);
    return { status: 200, body: renderCustomer(emu, customer) };
  },
};

export const customerRoutes: Route[] = [create, list, get, updateCustomer, remove];
