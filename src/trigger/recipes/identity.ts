/**
 * kyc.review|poor-document|missing-data, kyb.*, owner.*: customers (and owners) carrying the magic
 * value, the data and documents the row needs, then `POST /verifications`; observed are the
 * verification's status and errors and the statuses read back afterwards.
 */
import type { Scenario } from '../catalog.js';
import { call, field, pick, type Body, type TriggerContext } from '../context.js';
import { withSet } from '../inputs.js';
import { createIndividual } from './customers.js';
import { uploadDocument } from './documents.js';

/** A business whose registration number ends in "other" digits: approved at once, so its owners resolve. */
const APPROVED_REGISTRATION = 'REG-5550100';

async function verify(ctx: TriggerContext, customerId: string): Promise<Body> {
  ctx.progress('Submitting POST /verifications');
  const v = await call(ctx, 'POST', '/verifications', { customerId });
  if (typeof v.id === 'string') ctx.resources.verificationId = v.id;
  const errors = Array.isArray(v.errors) ? (v.errors as Body[]) : [];
  return {
    status: v.verificationStatus,
    ...pick(v, ['verificationStatus']),
    ...(errors.length ? { errorType: errors[0]!.type, errorTypes: errors.map((e) => e.type) } : {}),
  };
}

export async function individualVerification(ctx: TriggerContext, scenario: Scenario): Promise<Body> {
  // missing-data leaves out the fields and the document the spec requires; the others supply all of them.
  const complete = scenario.name !== 'kyc.missing-data';
  const customer = await createIndividual(ctx, scenario.magic.value, complete);
  const customerId = field(customer, 'id', 'POST /customers');
  if (complete) ctx.resources.documentId = await uploadDocument(ctx, customerId, 'PASSPORT');
  const outcome = await verify(ctx, customerId);
  const after = await call(ctx, 'GET', `/customers/${customerId}`);
  return { ...outcome, ...pick(after, ['kycStatus']) };
}

async function createBusiness(ctx: TriggerContext, registrationNumber: string): Promise<string> {
  const body = withSet(ctx.inputs, 'business', {
    customerType: 'BUSINESS',
    // What the description's BusinessInfo requires at creation (legalName, country, taxId, incorporatedOn).
    businessInfo: {
      legalName: 'Trigger Widgets LLC',
      registrationNumber,
      country: 'US',
      entityType: 'LLC',
      taxId: '12-3456789',
      incorporatedOn: '2015-06-01',
    },
  });
  ctx.progress(`Creating a business with registration number ${body.businessInfo.registrationNumber}`);
  const business = await call(ctx, 'POST', '/customers', body);
  return (ctx.resources.customerId = field(business, 'id', 'POST /customers'));
}

export async function businessVerification(ctx: TriggerContext, scenario: Scenario): Promise<Body> {
  const customerId = await createBusiness(ctx, scenario.magic.value);
  const outcome = await verify(ctx, customerId);
  const after = await call(ctx, 'GET', `/customers/${customerId}`);
  return { ...outcome, ...pick(after, ['kybStatus']) };
}

export async function beneficialOwner(ctx: TriggerContext, scenario: Scenario): Promise<Body> {
  const customerId = await createBusiness(ctx, APPROVED_REGISTRATION);
  ctx.progress('Adding a beneficial owner');
  const owner = await call(
    ctx,
    'POST',
    '/beneficial-owners',
    withSet(ctx.inputs, 'owner', {
      customerId,
      roles: ['UBO'],
      ownershipPercentage: 60,
      personalInfo: {
        firstName: 'Olive',
        lastName: scenario.magic.value,
        birthDate: '1980-02-03',
        nationality: 'US',
        idType: 'SSN',
        identifier: '987-65-4321',
        address: { line1: '2 Main St', city: 'Springfield', state: 'IL', postalCode: '62701', country: 'US' },
      },
    }),
  );
  const ownerPath = `/beneficial-owners/${(ctx.resources.beneficialOwnerId = field(owner, 'id', 'POST /beneficial-owners'))}`;
  const business = await verify(ctx, customerId);
  const after = await call(ctx, 'GET', ownerPath);
  return {
    status: after.kycStatus,
    ...pick(after, ['kycStatus']),
    businessVerificationStatus: business.verificationStatus,
  };
}
