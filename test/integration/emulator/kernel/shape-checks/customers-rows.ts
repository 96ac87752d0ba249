// Customers, beneficial owners, sessions and contact verification.
import { get, id, post, type Row, without } from './row.js';

const person = {
  firstName: 'Ada',
  lastName: 'Byron',
  birthDate: '1990-01-02',
  nationality: 'US',
  address: { line1: '1 Main St', postalCode: '10001', country: 'US' },
  idType: 'SSN',
  identifier: '123',
};
const owner = {
  customerId: 'x',
  roles: ['UBO'],
  ownershipPercentage: 30,
  personalInfo: person,
};
const ownerRow = (body: object, field: string, rule: string): Row => ({
  method: 'POST',
  path: '/beneficial-owners',
  body,
  field,
  rule,
});
const ownerPatch = (body: object, field: string, rule: string): Row => ({
  method: 'PATCH',
  path: `/beneficial-owners/${id('BeneficialOwner')}`,
  body,
  field,
  rule,
});
const personWith = (changes: object) => ({
  ...owner,
  personalInfo: { ...person, ...changes },
});
const customerPatch = (body: object, field: string, rule: string): Row => ({
  method: 'PATCH',
  path: `/customers/${id('Customer')}`,
  body,
  field,
  rule,
});
const individual = { customerType: 'INDIVIDUAL' };
const business = { customerType: 'BUSINESS' };
const address = {
  line1: '1 Main St',
  city: 'Springfield',
  postalCode: '10001',
  country: 'US',
};
const businessInfo = {
  legalName: 'Acme',
  country: 'US',
  taxId: '12-3456789',
  incorporatedOn: '2020-01-02',
};
const sessionRefresh = `/auth/sessions/${id('Session')}/refresh`;

export const CUSTOMER_ROWS: Record<string, Row[]> = {
  'beneficial-owners': [
    ownerRow(without(owner, 'customerId'), 'customerId', 'required'),
    ownerRow(without(owner, 'roles'), 'roles', 'required'),
    ownerRow({ ...owner, roles: ['KING'] }, 'roles[0]', 'enum'),
    ownerRow(without(owner, 'ownershipPercentage'), 'ownershipPercentage', 'required'),
    ownerRow({ ...owner, ownershipPercentage: 101 }, 'ownershipPercentage', 'maximum'),
    ownerRow({ ...owner, ownershipPercentage: -1 }, 'ownershipPercentage', 'minimum'),
    ownerRow(without(owner, 'personalInfo'), 'personalInfo', 'required'),
    ...['firstName', 'lastName', 'birthDate', 'nationality', 'idType', 'identifier'].map((name) =>
      ownerRow({ ...owner, personalInfo: without(person, name) }, `personalInfo.${name}`, 'required'),
    ),
    ownerRow(personWith({ birthDate: '1990-02-30' }), 'personalInfo.birthDate', 'format'),
    ownerRow(personWith({ nationality: 'XX' }), 'personalInfo.nationality', 'format'),
    ownerRow(personWith({ email: 'nobody' }), 'personalInfo.email', 'format'),
    ownerRow(personWith({ phoneNumber: '555' }), 'personalInfo.phoneNumber', 'pattern'),
    ownerRow(personWith({ idType: 'PASSPORT' }), 'personalInfo.idType', 'enum'),
    ownerPatch({ roles: ['KING'] }, 'roles[0]', 'enum'),
    ownerPatch({ ownershipPercentage: 101 }, 'ownershipPercentage', 'maximum'),
    ownerPatch({ personalInfo: { idType: 'PASSPORT' } }, 'personalInfo.idType', 'enum'),
    ownerPatch({ personalInfo: { birthDate: 'yesterday' } }, 'personalInfo.birthDate', 'format'),
    {
      method: 'GET',
      path: '/beneficial-owners',
      field: 'customerId',
      rule: 'required',
    },
  ],
  'customer update': [
    customerPatch({ fullName: 'Ada' }, 'customerType', 'required'),
    customerPatch({ customerType: 'ROBOT' }, 'customerType', 'enum'),
    customerPatch({ ...individual, email: 'nobody' }, 'email', 'format'),
    customerPatch({ ...individual, phoneNumber: '555' }, 'phoneNumber', 'pattern'),
    customerPatch({ ...individual, birthDate: '1990-02-30' }, 'birthDate', 'format'),
    customerPatch({ ...individual, nationality: 'XX' }, 'nationality', 'format'),
    ...['line1', 'postalCode', 'country'].map((name) =>
      customerPatch({ ...individual, address: without(address, name) }, `address.${name}`, 'required'),
    ),
    customerPatch({ ...individual, address: { ...address, country: 'EU' } }, 'address.country', 'format'),
    customerPatch({ ...business, businessInfo: { country: 'XX' } }, 'businessInfo.country', 'format'),
    customerPatch({ ...business, businessInfo: { incorporatedOn: 'soon' } }, 'businessInfo.incorporatedOn', 'format'),
    customerPatch({ ...business, businessInfo: { entityType: 'GUILD' } }, 'businessInfo.entityType', 'enum'),
    customerPatch(
      { ...business, businessInfo: { countriesOfOperation: ['XX'] } },
      'businessInfo.countriesOfOperation[0]',
      'format',
    ),
    // The readers are POST /customers' too: what they no longer require at creation.
    post('/customers', business, 'businessInfo', 'required'),
    ...['legalName', 'country', 'taxId', 'incorporatedOn'].map((name) =>
      post(
        '/customers',
        { ...business, businessInfo: without(businessInfo, name) },
        `businessInfo.${name}`,
        'required',
      ),
    ),
    post('/customers', { ...individual, email: 'nobody' }, 'email', 'format'),
    post('/customers', { ...individual, address: without(address, 'line1') }, 'address.line1', 'required'),
    // And the beneficial owners' address reader's.
    ownerRow({ ...owner, personalInfo: without(person, 'address') }, 'personalInfo.address', 'required'),
  ],
  sessions: [get('/auth/sessions', 'accountId', 'required'), post(sessionRefresh, {}, 'clientPublicKey', 'required')],
  'contact verification': [
    post(`/customers/${id('Customer')}/verify-email/confirm`, {}, 'code', 'required'),
    post(`/customers/${id('Customer')}/verify-phone/confirm`, {}, 'code', 'required'),
  ],
};
