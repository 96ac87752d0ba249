/**
 * The one-line summaries of the event families the emulator sends besides cards (data shaped as
 * its render functions shape it): what a user acts on, and nothing shown as `undefined`.
 */
import { describe, expect, it } from 'vitest';
import { eventLine } from '../../../src/webhook/event-lines.js';

const usd = (amount: number) => ({ amount, currency: { code: 'USD', decimals: 2 } });

describe('eventLine', () => {
  it.each([
    [
      'INVITATION.CLAIMED',
      { code: '1a2b3c4d', status: 'CLAIMED', inviterUma: '$alice@uma.example', inviteeUma: '$bob@uma.example' },
      'CLAIMED by $bob@uma.example, invited by $alice@uma.example',
    ],
    [
      'BULK_UPLOAD.FAILED',
      {
        id: 'Job:1',
        status: 'FAILED',
        progress: { total: 0, processed: 0, successful: 0, failed: 0 },
        errors: [{ correlationId: 'file', code: 'INVALID_INPUT', message: 'file: the CSV has a header and no rows' }],
      },
      'FAILED 0 of 0 imported: file: the CSV has a header and no rows',
    ],
    [
      'BULK_UPLOAD.COMPLETED',
      {
        status: 'COMPLETED',
        progress: { total: 5, processed: 5, successful: 3, failed: 2 },
        errors: [
          { correlationId: 'a', code: 'INVALID_INPUT', message: 'Row 2: fullName' },
          { correlationId: 'b', code: 'INVALID_INPUT', message: 'Row 4: birthDate' },
        ],
      },
      'COMPLETED 3 of 5 imported, 2 failed: Row 2: fullName (+1 more)',
    ],
    [
      'AGENT_ACTION.PENDING_APPROVAL',
      {
        id: 'AgentAction:1',
        agentId: 'Agent:1',
        customerId: 'Customer:1',
        status: 'PENDING_APPROVAL',
        type: 'TRANSFER_OUT',
      },
      'PENDING_APPROVAL TRANSFER_OUT by Agent:1 for Customer:1',
    ],
    [
      'OUTGOING_PAYMENT.FAILED',
      { id: 'Transaction:1', status: 'FAILED', sentAmount: usd(1250), failureReason: 'QUOTE_EXPIRED' },
      'FAILED 12.50 USD (QUOTE_EXPIRED)',
    ],
    [
      'INCOMING_PAYMENT.COMPLETED',
      { id: 'Transaction:2', status: 'COMPLETED', receivedAmount: usd(990) },
      'COMPLETED 9.90 USD',
    ],
    [
      'CUSTOMER.KYB_APPROVED',
      { id: 'Customer:1', kybStatus: 'APPROVED', umaAddress: '$acme@uma.example', platformCustomerId: 'acme-1' },
      'KYB APPROVED $acme@uma.example (acme-1)',
    ],
    [
      'VERIFICATION.RESOLVE_ERRORS',
      { id: 'Verification:1', customerId: 'Customer:1', verificationStatus: 'RESOLVE_ERRORS', errors: [{}, {}] },
      'RESOLVE_ERRORS for Customer:1 (2 to resolve)',
    ],
    [
      'EXTERNAL_ACCOUNT.STATUS_UPDATED',
      { id: 'ExternalAccount:1', status: 'ACTIVE', currency: 'MXN', beneficiaryVerificationStatus: 'MATCHED' },
      'ACTIVE MXN (name check MATCHED)',
    ],
    [
      'INTERNAL_ACCOUNT.BALANCE_UPDATED',
      { id: 'InternalAccount:1', status: 'ACTIVE', balance: usd(100000) },
      'ACTIVE balance 1,000.00 USD',
    ],
  ])('%s', (type, data, line) => {
    expect(eventLine(type, data)).toBe(line);
  });

  it('leaves out what the data lacks, and has no line for a family without one or data without its fields', () => {
    expect(eventLine('INVITATION.CLAIMED', { code: '1a2b3c4d', status: 'CLAIMED' })).toBe('CLAIMED');
    expect(eventLine('BULK_UPLOAD.COMPLETED', {})).toBeUndefined();
    expect(eventLine('TEST', { id: 'x' })).toBeUndefined();
  });
});
