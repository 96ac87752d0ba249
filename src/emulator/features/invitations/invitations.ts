/**
 * UMA invitations (the description's UmaInvitation): a platform customer invites someone by link;
 * the invitee claims it with their UMA address (INVITATION.CLAIMED), or the platform cancels it
 * while it is PENDING. An invitation past its `expiresAt` reads as EXPIRED from that moment of the
 * emulator's clock: nothing has to run for it to expire, and moving the clock expires it.
 */
import { randomBytes } from 'node:crypto';
import type { EmulatorContext } from '../../kernel/context.js';
import { notFound } from '../../kernel/errors.js';
import { durableTable } from '../../kernel/tables.js';
import { money } from '../accounts/currencies.js';

export type InvitationStatus = 'PENDING' | 'CLAIMED' | 'EXPIRED' | 'CANCELLED';

export interface InvitationRec {
  code: string;
  inviterUma: string;
  /** The inviter's currency, in which amountToSend is counted. */
  currency: string;
  firstName?: string;
  amountToSend?: number;
  expiresAt?: string;
  /** PENDING, CLAIMED or CANCELLED as stored; EXPIRED is read from the clock (statusOf). */
  status: 'PENDING' | 'CLAIMED' | 'CANCELLED';
  inviteeUma?: string;
  claimedAt?: string;
  createdAt: string;
}

/** Keyed by code: the description looks invitations up by nothing else. */
export const invitations = durableTable<InvitationRec>('invitations', {
  code: 'string',
  inviterUma: 'string',
  currency: 'string',
  firstName: 'string?',
  amountToSend: 'number?',
  expiresAt: 'string?',
  status: 'string',
  inviteeUma: 'string?',
  claimedAt: 'string?',
  createdAt: 'string',
});

/** Where an invitation's page is served (unversioned, public: the code is what the invitee is given). */
export const INVITATION_PAGE_PREFIX = '/i/';

export function statusOf(emu: EmulatorContext, inv: InvitationRec): InvitationStatus {
  if (inv.status === 'PENDING' && inv.expiresAt !== undefined && Date.parse(inv.expiresAt) <= emu.now())
    return 'EXPIRED';
  return inv.status;
}

export function renderInvitation(emu: EmulatorContext, inv: InvitationRec): Record<string, unknown> {
  const { currency, amountToSend, ...shown } = inv;
  return {
    ...shown,
    status: statusOf(emu, inv),
    url: `${emu.origin}${INVITATION_PAGE_PREFIX}${inv.code}`,
    ...(amountToSend !== undefined ? { amountToSend: money(amountToSend, currency) } : {}),
  };
}

export function invitationOr404(emu: EmulatorContext, code: string): InvitationRec {
  const inv = emu.table(invitations).get(code);
  if (!inv) throw notFound('Invitation', code, 'INVITATION_NOT_FOUND');
  return inv;
}

/** Eight hex digits, like the description's example, unused so far. */
export function newCode(emu: EmulatorContext): string {
  for (;;) {
    const code = randomBytes(4).toString('hex');
    if (!emu.table(invitations).has(code)) return code;
  }
}
