/**
 * Whether a Service-Wallet-Signature may complete a pending request: a stamp over the exact
 * payloadToSign, made by the key the challenge requires (OTP verify: the TEK) or else by the key of
 * an active session of the wallet, named in the compressed form. The legacy sandbox value passes.
 */
import { StampError, parseStamp, verifyStamp } from '../../crypto/stamp.js';
import { LEGACY_WALLET_SIGNATURE } from '../../service/auth-magic.js';
import type { EmulatorContext } from '../kernel/context.js';
import { signatureError } from '../kernel/errors.js';
import { keyHasActiveSession } from '../features/sessions/sessions.js';
import type { PendingRequest } from './pending.js';

/** src/crypto/README.md "API-key stamp": a stamp names its signer by the compressed key, the form session keys are registered in. */
const COMPRESSED_KEY = /^0[23][0-9a-fA-F]{64}$/;

/** The stamp must verify over payloadToSign and be made by an authorized key. */
export function authorizeSignature(
  emu: EmulatorContext,
  pending: Pick<
    PendingRequest,
    'payloadToSign' | 'accountId' | 'requiredSigner' | 'excludedSignerCredential' | 'signerAccountIds'
  >,
  signature: string,
): void {
  if (signature === LEGACY_WALLET_SIGNATURE) return;
  let publicKey: string;
  try {
    // A stamp naming its key in the uncompressed form would not match the registered key in the
    // service, so it must not pass here either (verifyStamp accepts both forms).
    if (!COMPRESSED_KEY.test(parseStamp(signature).publicKey)) {
      throw new StampError('malformed', 'stamp publicKey must be the compressed SEC1 key (02/03 + 64 hex)');
    }
    publicKey = verifyStamp(signature, pending.payloadToSign).publicKey;
  } catch (error) {
    // Stryker disable next-line ConditionalExpression: parseStamp and verifyStamp throw only StampError; this keeps a future bug a 500, not a 401.
    if (!(error instanceof StampError)) throw error;
    if (error.kind === 'malformed')
      throw signatureError('WALLET_SIGNATURE_MALFORMED', `Service-Wallet-Signature is malformed: ${error.message}`);
    throw signatureError(
      'WALLET_SIGNATURE_INVALID',
      'Service-Wallet-Signature does not verify over the pending payloadToSign',
    );
  }
  if (pending.requiredSigner !== undefined) {
    if (publicKey !== pending.requiredSigner) {
      throw signatureError(
        'WALLET_SIGNATURE_INVALID',
        'Service-Wallet-Signature was not made by the key bound to this challenge',
      );
    }
  } else if (
    !(pending.signerAccountIds ?? [pending.accountId]).some((account) =>
      keyHasActiveSession(emu, publicKey, account, pending.excludedSignerCredential),
    )
  ) {
    throw signatureError(
      'WALLET_SIGNATURE_INVALID',
      pending.excludedSignerCredential
        ? 'Service-Wallet-Signature key is not the key of an active session of another credential of this wallet'
        : 'Service-Wallet-Signature key is not the key of an active session of this wallet',
    );
  }
}
