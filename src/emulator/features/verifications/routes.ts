/**
 * POST /verifications {customerId}: 200 with the verification (missing data is RESOLVE_ERRORS, not
 * an error); 400 for a customer already APPROVED or REJECTED (spec condition 6); 404 unknown
 * customer; 410 a deleted one. GET /verifications (paged, by customerId and verificationStatus) and GET /verifications/{id}.
 */
import { idPattern } from '../../../service/index.js';
import { callerSees } from '../../kernel/agent-scope.js';
import { badRequest, notFound } from '../../kernel/errors.js';
import { Fields } from '../../kernel/fields.js';
import { pageOf, readPage } from '../../kernel/paging.js';
import type { Route } from '../../kernel/router.js';
import { ownersOf, resolveOwner } from '../beneficial-owners/owners.js';
import type { EmulatorContext } from '../../kernel/context.js';
import { liveCustomerOr4xx, setCustomerStatus, type CustomerRec } from '../customers/customers.js';
import { markSubmitted } from '../documents/documents.js';
import { decideBusiness, decideIndividual } from './decide.js';
import {
  latestVerification,
  recordVerification,
  renderVerification,
  verifications,
  type VerificationRec,
} from './verifications.js';

/**
 * One submission for verification of a live customer: POST /verifications and the hosted KYC page
 * (kyc-link.ts) both come here, so both paths make the same transitions and webhooks.
 */
export function submitVerification(emu: EmulatorContext, customer: CustomerRec): VerificationRec {
  const business = customer.customerType === 'BUSINESS';
  const status = business ? customer.kybStatus : customer.kycStatus;
  if (status === 'APPROVED' || status === 'REJECTED') {
    throw badRequest(
      'INVALID_INPUT',
      `${customer.id} is already ${business ? 'KYB' : 'KYC'} ${status}; there is nothing left to verify`,
      {
        errors: [{ field: 'customerId', message: `customer ${business ? 'kybStatus' : 'kycStatus'} is ${status}` }],
      },
    );
  }
  // The description: every contact channel the region asks for is VERIFIED before KYC begins.
  const unverified = Object.entries(customer.contactVerification ?? {}).filter(([, s]) => s !== 'VERIFIED');
  if (unverified.length > 0) {
    const channels = unverified.map(([channel]) => channel).join(' and ');
    throw badRequest(
      'INVALID_INPUT',
      `Verify the customer's ${channels} first (POST /customers/${customer.id}/verify-…)`,
      {
        errors: [{ field: 'customerId', message: `contactVerification: ${channels} not VERIFIED` }],
      },
    );
  }
  const decision = business ? decideBusiness(emu, customer) : decideIndividual(emu, customer);
  const previous = latestVerification(emu, customer.id);
  const verification = recordVerification(emu, customer.id, decision.verificationStatus, decision.errors);
  // Owners first, so the CUSTOMER.KYB_* event's business lists them resolved.
  if (decision.resolvesOwners) for (const owner of ownersOf(emu, customer.id)) resolveOwner(emu, owner);
  if (decision.customerStatus) {
    // A submission that newly reaches review announces the customer's status even when it was
    // already PENDING (an individual ending in 001 is PENDING from creation).
    setCustomerStatus(
      emu,
      customer,
      decision.customerStatus,
      previous?.verificationStatus !== decision.verificationStatus,
    );
  }
  markSubmitted(emu, [customer.id, ...ownersOf(emu, customer.id).map((o) => o.id)]);
  return verification;
}

const submit: Route = {
  method: 'POST',
  path: '/verifications',
  permission: 'MANAGE',
  handler(req, emu) {
    const f = new Fields(req.json());
    // Required is the description's, checked before this runs; the id's kind is the emulator's.
    const customerId = f.string('customerId', { pattern: idPattern('Customer') });
    f.done();
    return {
      status: 200,
      body: renderVerification(submitVerification(emu, liveCustomerOr4xx(emu, customerId!, { field: 'customerId' }))),
    };
  },
};

const list: Route = {
  method: 'GET',
  path: '/verifications',
  permission: 'VIEW',
  handler(req, emu) {
    const f = new Fields(Object.fromEntries(req.query));
    const customerId = f.string('customerId', { pattern: idPattern('Customer') });
    // verificationStatus's enum is the description's, checked before this runs.
    const verificationStatus = f.string('verificationStatus');
    const paging = readPage(f);
    f.done();
    const sees = callerSees(emu, req);
    const picked = emu
      .table(verifications)
      .filter(
        (v) =>
          sees(v) &&
          (!customerId || v.customerId === customerId) &&
          (!verificationStatus || v.verificationStatus === verificationStatus),
      );
    return { status: 200, body: pageOf(picked.map(renderVerification), paging) };
  },
};

const get: Route = {
  method: 'GET',
  path: '/verifications/:id(Verification)',
  permission: 'VIEW',
  handler(req, emu) {
    const v = emu.table(verifications).get(req.params.id!);
    if (!v) throw notFound('Verification', req.params.id!);
    return { status: 200, body: renderVerification(v) };
  },
};

export const verificationRoutes: Route[] = [submit, list, get];
