/**
 * POST /invitations (201), GET /invitations/{code}, POST …/claim and …/cancel (200, or 400 with
 * the description's code for an invitation past PENDING), and the page its url opens.
 */
import { parseDateTime } from '../../../date-time.js';
import { UMA_ADDRESS_PATTERN } from '../../../service/identifiers.js';
import type { EmulatorContext } from '../../kernel/context.js';
import { badRequest, invalidInput } from '../../kernel/errors.js';
import { Fields } from '../../kernel/fields.js';
import { escapeHtml } from '../../kernel/html.js';
import type { Route } from '../../kernel/router.js';
import { accounts, byCustomer } from '../accounts/accounts.js';
import { findCustomerByUma } from '../customers/customers.js';
import {
  INVITATION_PAGE_PREFIX,
  invitationOr404,
  invitations,
  newCode,
  renderInvitation,
  statusOf,
  type InvitationRec,
} from './invitations.js';

const umaRules = { pattern: UMA_ADDRESS_PATTERN, maxLength: 320 };

/** 400 unless the invitation is still PENDING: claimed, cancelled and expired ones are final. */
function checkPending(emu: EmulatorContext, inv: InvitationRec): void {
  const status = statusOf(emu, inv);
  if (status === 'CLAIMED')
    throw badRequest('INVITATION_ALREADY_CLAIMED', `Invitation ${inv.code} was claimed by ${inv.inviteeUma}`);
  if (status === 'CANCELLED') throw badRequest('INVITATION_CANCELLED', `Invitation ${inv.code} was cancelled`);
  if (status === 'EXPIRED') {
    // The description's 400 codes have none for an expired invitation: the code is what is wrong.
    throw invalidInput([
      { field: 'invitationCode', message: `Invitation ${inv.code} expired at ${inv.expiresAt}; create a new one` },
    ]);
  }
}

const create: Route = {
  method: 'POST',
  path: '/invitations',
  permission: 'MANAGE',
  handler(req, emu) {
    const f = new Fields(req.json());
    // Required fields and expiresAt's date-time are the description's, checked before this runs.
    const inviterUma = f.string('inviterUma', umaRules);
    const firstName = f.string('firstName', { minLength: 1, maxLength: 255 });
    const amountToSend = f.integer('amountToSend', { min: 1 });
    const expiresAt = f.string('expiresAt', {
      check: (v) =>
        parseDateTime(v)! <= emu.now() ? `expiresAt must be in the future (now is ${emu.iso()})` : undefined,
    });
    const inviter = inviterUma === undefined ? undefined : findCustomerByUma(emu, inviterUma);
    if (inviterUma !== undefined && (!inviter || inviter.isDeleted))
      f.add('inviterUma', `${inviterUma} is not the UMA address of one of your customers`);
    f.done();
    const inv: InvitationRec = {
      code: newCode(emu),
      inviterUma: inviter!.umaAddress,
      currency: emu.table(accounts).first(byCustomer, inviter!.id)?.currency ?? 'USD',
      status: 'PENDING',
      createdAt: emu.iso(),
      ...(firstName !== undefined ? { firstName } : {}),
      ...(amountToSend !== undefined ? { amountToSend } : {}),
      ...(expiresAt !== undefined ? { expiresAt: emu.iso(parseDateTime(expiresAt)) } : {}),
    };
    emu.table(invitations).set(inv.code, inv);
    return { status: 201, body: renderInvitation(emu, inv) };
  },
};

const get: Route = {
  method: 'GET',
  path: '/invitations/:code',
  permission: 'VIEW',
  handler: (req, emu) => ({ status: 200, body: renderInvitation(emu, invitationOr404(emu, req.params.code!)) }),
};

const claim: Route = {
  method: 'POST',
  path: '/invitations/:code/claim',
  permission: 'MANAGE',
  handler(req, emu) {
    const inv = invitationOr404(emu, req.params.code!);
    const f = new Fields(req.json());
    const inviteeUma = f.string('inviteeUma', umaRules);
    if (inviteeUma !== undefined && inviteeUma.toLowerCase() === inv.inviterUma.toLowerCase())
      f.add('inviteeUma', 'the inviter cannot claim their own invitation');
    f.done();
    checkPending(emu, inv);
    Object.assign(inv, { status: 'CLAIMED', inviteeUma, claimedAt: emu.iso() });
    emu.table(invitations).set(inv.code, inv);
    const body = renderInvitation(emu, inv);
    emu.outbox.emit('INVITATION.CLAIMED', body);
    return { status: 200, body };
  },
};

const cancel: Route = {
  method: 'POST',
  path: '/invitations/:code/cancel',
  permission: 'MANAGE',
  permissionRefusal: 403,
  handler(req, emu) {
    const inv = invitationOr404(emu, req.params.code!);
    checkPending(emu, inv);
    inv.status = 'CANCELLED';
    emu.table(invitations).set(inv.code, inv);
    return { status: 200, body: renderInvitation(emu, inv) };
  },
};

const PAGE_TEXT: Record<string, string> = {
  PENDING: 'You are invited. Claim this invitation in your UMA app.',
  CLAIMED: 'This invitation has been claimed.',
  EXPIRED: 'This invitation has expired.',
  CANCELLED: 'This invitation was cancelled.',
};

/** The invitee's page: who invites, and whether the invitation can still be claimed. */
const page: Route = {
  method: 'GET',
  path: `${INVITATION_PAGE_PREFIX}:code`,
  permission: 'none',
  unversioned: true,
  public: true,
  handler(req, emu) {
    const inv = emu.table(invitations).get(req.params.code!);
    const headers = { 'content-type': 'text/html; charset=utf-8', 'content-security-policy': "default-src 'none'" };
    if (!inv)
      return { status: 404, headers, text: '<!doctype html><title>Invitation</title><p>No such invitation.</p>' };
    const status = statusOf(emu, inv);
    return {
      status: 200,
      headers,
      text:
        `<!doctype html><meta charset="utf-8"><title>Invitation</title>` +
        `<p id="inviter">${escapeHtml(inv.inviterUma)} invited you.</p>` +
        `<p id="status" data-status="${status}">${PAGE_TEXT[status]}</p>`,
    };
  },
};

export const invitationRoutes: Route[] = [create, get, claim, cancel, page];
