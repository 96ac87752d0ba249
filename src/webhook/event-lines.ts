/**
 * One readable line per webhook event family that has no rule of its own (card events have theirs
 * in render.ts): the fields a user acts on, e.g. `CLAIMED by $bob@uma.example, invited by
 * $alice@uma.example (125.50 USD to send)` or `COMPLETED 8 of 10 imported, 2 failed: …`. A missing
 * field is left out rather than shown as `undefined`; a family not in the table shows its id only.
 */
import { formatMoney, type Money } from '../sandbox/format-money.js';
import { cardTransactionLine } from './card-transaction-line.js';

type Data = Record<string, unknown>;

/** A field that is a non-empty string, else undefined (render.ts reads card fields with it too). */
export function stringField(data: Data, key: string): string | undefined {
  const value = data[key];
  return typeof value === 'string' && value !== '' ? value : undefined;
}
const count = (data: Data, key: string): number | undefined => {
  const value = data[key];
  return typeof value === 'number' ? value : undefined;
};
const money = (data: Data, key: string): string | undefined => {
  const value = data[key];
  return value !== null && typeof value === 'object' ? formatMoney(value as Money) : undefined;
};
const object = (value: unknown): Data => (value !== null && typeof value === 'object' ? (value as Data) : {});
/** The words that are there, one space apart. */
const words = (...parts: (string | false | undefined)[]): string => parts.filter(Boolean).join(' ');

function invitationLine(data: Data): string {
  const invitee = stringField(data, 'inviteeUma');
  const inviter = stringField(data, 'inviterUma');
  const amount = money(data, 'amountToSend');
  const line = words(stringField(data, 'status'), invitee && `by ${invitee},`, inviter && `invited by ${inviter}`);
  return words(line.replace(/,$/, ''), amount && `(${amount} to send)`);
}

function bulkUploadLine(data: Data): string {
  const progress = object(data.progress);
  const total = count(progress, 'total');
  const successful = count(progress, 'successful');
  const failed = count(progress, 'failed');
  const errors = Array.isArray(data.errors) ? data.errors.map(object) : [];
  const first = errors[0] && (stringField(errors[0], 'message') ?? stringField(errors[0], 'code'));
  const more = errors.length > 1 ? ` (+${errors.length - 1} more)` : '';
  const line = words(
    stringField(data, 'status'),
    successful !== undefined &&
      total !== undefined &&
      `${successful} of ${total} imported${failed ? `, ${failed} failed` : ''}`,
  );
  return first ? `${line}: ${first}${more}` : line;
}

function agentActionLine(data: Data): string {
  const agent = stringField(data, 'agentId');
  const customer = stringField(data, 'customerId');
  const rejected = stringField(data, 'rejectionReason');
  return words(
    stringField(data, 'status'),
    stringField(data, 'type'),
    agent && `by ${agent}`,
    customer && `for ${customer}`,
    rejected && `(${rejected})`,
  );
}

function paymentLine(data: Data): string {
  const amount = money(data, 'sentAmount') ?? money(data, 'receivedAmount') ?? money(data, 'amount');
  const reason = stringField(data, 'failureReason');
  return words(stringField(data, 'status'), amount, reason && `(${reason})`);
}

function customerLine(data: Data): string {
  const kyb = stringField(data, 'kybStatus');
  const status = kyb ? `KYB ${kyb}` : stringField(data, 'kycStatus') && `KYC ${stringField(data, 'kycStatus')}`;
  return words(
    status,
    stringField(data, 'umaAddress'),
    stringField(data, 'platformCustomerId') && `(${stringField(data, 'platformCustomerId')})`,
  );
}

function verificationLine(data: Data): string {
  const errors = Array.isArray(data.errors) ? data.errors.length : 0;
  const customer = stringField(data, 'customerId');
  return words(
    stringField(data, 'verificationStatus') ?? stringField(data, 'status'),
    customer && `for ${customer}`,
    errors > 0 && `(${errors} to resolve)`,
  );
}

function externalAccountLine(data: Data): string {
  const match = stringField(data, 'beneficiaryVerificationStatus');
  return words(stringField(data, 'status'), stringField(data, 'currency'), match && `(name check ${match})`);
}

function internalAccountLine(data: Data): string {
  const balance = money(data, 'balance');
  return words(stringField(data, 'status'), balance && `balance ${balance}`);
}

/** By type family, the part before the dot. */
const EVENT_LINES: Record<string, (data: Data) => string> = {
  CARD_TRANSACTION: cardTransactionLine,
  INVITATION: invitationLine,
  BULK_UPLOAD: bulkUploadLine,
  AGENT_ACTION: agentActionLine,
  INCOMING_PAYMENT: paymentLine,
  OUTGOING_PAYMENT: paymentLine,
  CUSTOMER: customerLine,
  VERIFICATION: verificationLine,
  EXTERNAL_ACCOUNT: externalAccountLine,
  INTERNAL_ACCOUNT: internalAccountLine,
};

/** The event's line, or undefined for a family without one (or data with none of its fields). */
export function eventLine(type: string, data: Data): string | undefined {
  const line = EVENT_LINES[type.split('.')[0]!]?.(data);
  return line === '' ? undefined : line;
}
