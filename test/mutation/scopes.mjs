// The money and security checks under mutation testing (`npm run mutation`), one scope each: the
// files Stryker mutates and the test files that guard them. A scope runs only its own tests, so a
// run takes minutes on two cores; the tests must import the code under test (src/), never spawn
// the built CLI, which Stryker's mutants do not reach.
export const SCOPES = {
  idempotency: {
    mutate: ['src/emulator/features/transactions/idempotency.ts'],
    tests: [
      'test/unit/emulator/idempotency-rules.test.ts',
      'test/integration/emulator/money/idempotency.test.ts',
      'test/integration/emulator/money/transfers.test.ts',
      'test/integration/emulator/money/quotes.test.ts',
    ],
  },
  'signed-retry': {
    mutate: ['src/emulator/signed-retry/flow.ts', 'src/emulator/signed-retry/signature.ts'],
    tests: [
      'test/integration/emulator/auth/refresh.test.ts',
      'test/integration/emulator/signed-retry/target.test.ts',
      'test/integration/emulator/auth/sessions.test.ts',
      'test/integration/emulator/signed-retry/legacy-processing.test.ts',
      'test/integration/emulator/identity/customer-contact-signed.test.ts',
      'test/integration/emulator/signed-retry/refusals.test.ts',
      'test/integration/emulator/auth/credentials.test.ts',
    ],
  },
  stamps: {
    mutate: ['src/crypto/stamp.ts', 'src/crypto/ecdsa-verify.ts'],
    tests: ['test/unit/crypto/stamp.test.ts', 'test/unit/crypto/keys-commands.test.ts'],
  },
  'webhook-signature': {
    mutate: ['src/crypto/webhook-signature.ts'],
    tests: ['test/unit/crypto/webhook-signature.test.ts', 'test/unit/crypto/webhook-verify-async.test.ts'],
  },
  'webhook-dedupe': {
    mutate: ['src/webhook/dedupe.ts', 'src/webhook/seen-set.ts'],
    tests: ['test/unit/webhook/dedupe.test.ts', 'test/unit/webhook/seen-file-failure.test.ts'],
  },
  oidc: {
    mutate: ['src/emulator/features/auth/oidc.ts'],
    tests: ['test/unit/emulator/oidc-rules.test.ts', 'test/integration/emulator/auth/oauth.test.ts'],
  },
  webauthn: {
    mutate: ['src/emulator/features/auth/webauthn.ts'],
    tests: [
      'test/unit/emulator/webauthn-checks.test.ts',
      'test/integration/emulator/auth/passkey.test.ts',
      'test/integration/emulator/auth/passkey-registration.test.ts',
    ],
  },
  'agent-scope': {
    mutate: ['src/emulator/kernel/agent-scope.ts'],
    tests: [
      'test/unit/emulator/agent-scope.test.ts',
      'test/integration/emulator/agents/agents.test.ts',
      'test/integration/emulator/agents/platform-scope.test.ts',
    ],
  },
  ledger: {
    mutate: ['src/emulator/features/accounts/ledger.ts'],
    tests: [
      'test/unit/emulator/ledger-rules.test.ts',
      'test/integration/emulator/money/internal-accounts.test.ts',
      'test/integration/emulator/money/transfers.test.ts',
      'test/integration/emulator/money/concurrency.test.ts',
    ],
  },
};

/** The score every scope must reach (Stryker's `thresholds.break`). */
export const BREAK_BELOW = 90;
