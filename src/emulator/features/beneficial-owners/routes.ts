/** POST /beneficial-owners, GET /beneficial-owners?customerId= (paged), GET and PATCH /beneficial-owners/{id}. */
import { idPattern } from '../../../service/index.js';
import { badRequest, notFound } from '../../kernel/errors.js';
import { Fields } from '../../kernel/fields.js';
import { pageOf, readPage } from '../../kernel/paging.js';
import type { EmulatorContext } from '../../kernel/context.js';
import type { Route } from '../../kernel/router.js';
import { liveCustomerOr4xx } from '../customers/customers.js';
import { COUNTRY, defined, readAddress } from '../customers/fields.js';
import {
  insertOwner,
  owners,
  ownersOf,
  renderOwner,
  resolveOwner,
  type OwnerRec,
  type PersonalInfo,
} from './owners.js';

/**
 * BeneficialOwnerPersonalInfo (on update BeneficialOwnerPersonalInfoUpdate). Its shape (required
 * fields, types, formats, the phone pattern, idType's enum) is checked before this runs; read here
 * are the emulator's lengths. The address reader is the customers' (shared with the CSV import).
 */
function readPersonalInfo(f: Fields): Partial<PersonalInfo> | undefined {
  const p = f.object('personalInfo');
  if (!p) return undefined;
  const before = f.errors.length;
  const name = { minLength: 1, maxLength: 100 };
  const info = defined({
    firstName: p.string('firstName', name),
    middleName: p.string('middleName', name),
    lastName: p.string('lastName', name),
    birthDate: p.string('birthDate'),
    nationality: p.string('nationality'),
    email: p.string('email'),
    phoneNumber: p.string('phoneNumber'),
    address: readAddress(p),
    idType: p.string('idType'),
    identifier: p.string('identifier', { minLength: 1, maxLength: 64 }),
    countryOfIssuance: p.string('countryOfIssuance', { pattern: COUNTRY, format: 'iso3166-1-alpha-2' }),
  });
  return f.errors.length === before ? info : undefined;
}

function readOwnership(f: Fields) {
  return defined({
    // The roles' enum and the percentage's range are the description's; at least one role is the emulator's.
    roles: f.stringArray('roles', { minItems: 1 }),
    ownershipPercentage: f.integer('ownershipPercentage'),
  });
}

function ownerOr404(emu: EmulatorContext, id: string): OwnerRec {
  const owner = emu.table(owners).get(id);
  if (!owner) throw notFound('Beneficial owner', id);
  return owner;
}

const create: Route = {
  method: 'POST',
  path: '/beneficial-owners',
  permission: 'MANAGE',
  handler(req, emu) {
    const f = new Fields(req.json());
    const customerId = f.string('customerId', { pattern: idPattern('Customer') });
    const ownership = readOwnership(f);
    const personalInfo = readPersonalInfo(f);
    f.done();
    const business = liveCustomerOr4xx(emu, customerId!, { field: 'customerId' });
    if (business.customerType !== 'BUSINESS') {
      throw badRequest(
        'INVALID_INPUT',
        `${business.id} is an INDIVIDUAL customer; beneficial owners belong to BUSINESS customers`,
        {
          errors: [{ field: 'customerId', message: 'customerId must name a BUSINESS customer' }],
        },
      );
    }
    const owner = insertOwner(emu, {
      customerId: business.id,
      roles: ownership.roles!,
      ownershipPercentage: ownership.ownershipPercentage!,
      personalInfo: personalInfo as PersonalInfo,
    });
    // An owner added after its business resolved is resolved at once, as the others were.
    if (business.kybStatus === 'APPROVED' || business.kybStatus === 'REJECTED') resolveOwner(emu, owner);
    return { status: 201, body: renderOwner(owner) };
  },
};

const list: Route = {
  method: 'GET',
  path: '/beneficial-owners',
  permission: 'VIEW',
  handler(req, emu) {
    const f = new Fields(Object.fromEntries(req.query));
    const customerId = f.string('customerId', { pattern: idPattern('Customer') });
    const paging = readPage(f);
    f.done();
    return { status: 200, body: pageOf(ownersOf(emu, customerId!).map(renderOwner), paging) };
  },
};

const get: Route = {
  method: 'GET',
  path: '/beneficial-owners/:id(BeneficialOwner)',
  permission: 'VIEW',
  handler: (req, emu) => ({ status: 200, body: renderOwner(ownerOr404(emu, req.params.id!)) }),
};

const update: Route = {
  method: 'PATCH',
  path: '/beneficial-owners/:id(BeneficialOwner)',
  permission: 'MANAGE',
  handler(req, emu) {
    const owner = ownerOr404(emu, req.params.id!);
    const f = new Fields(req.json());
    const ownership = readOwnership(f);
    const personalInfo = readPersonalInfo(f);
    f.done();
    Object.assign(owner, ownership, { updatedAt: emu.iso() });
    if (personalInfo) owner.personalInfo = { ...owner.personalInfo, ...personalInfo } as PersonalInfo;
    emu.table(owners).set(owner.id, owner);
    return { status: 200, body: renderOwner(owner) };
  },
};

export const ownerRoutes: Route[] = [create, list, get, update];
