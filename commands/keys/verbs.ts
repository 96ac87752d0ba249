/** `svc keys …`: the signing core from a shell. */
import { defineVerb, flag, verb } from '../verb.js';

/** --private-key / --private-key-file, worded alike on every verb that takes a key. */
function privateKeyFlags(what: string) {
  return {
    privateKey: flag.value('--private-key <hex>', `${what} (64 hex)`),
    privateKeyFile: flag.file(
      '--private-key-file <path>',
      'read the private key from a file (keeps it out of the process list)',
    ),
  };
}

/** --payload / --payload-file; without either the payload is read from stdin. */
const payloadFlags = {
  payload: flag.value('--payload <text>', 'the exact payloadToSign (default: read from stdin)'),
  payloadFile: flag.file('--payload-file <path>', 'read the payload from a file (bytes as they are)'),
};

export const generate = defineVerb({
  name: 'generate',
  description: 'generate a P-256 key pair',
  flags: { uncompressed: flag.boolean('--uncompressed', 'print the public key uncompressed (04…, 130 hex)') },
  help: `
Examples:
  $ svc keys generate
  $ svc --json keys generate --uncompressed`,
});

export const stamp = defineVerb({
  name: 'stamp',
  description: 'print the Service-Wallet-Signature header value for a payload (payload from stdin if no flag)',
  flags: { ...privateKeyFlags('session private key'), ...payloadFlags },
  help: `
Example:
  $ printf %s "$PAYLOAD" | svc keys stamp --private-key-file session.key`,
});

export const verifyStamp = defineVerb({
  name: 'verify-stamp',
  description: 'verify a Service-Wallet-Signature over a payload; prints the signing public key',
  flags: { stamp: flag.required('--stamp <value>', 'the header value'), ...payloadFlags },
  help: `
Example:
  $ svc keys verify-stamp --stamp "$STAMP" --payload-file payload.json`,
});

export const encryptOtp = defineVerb({
  name: 'encrypt-otp',
  description: 'encrypt an OTP code to an otpEncryptionTargetBundle (checks the bundle signer)',
  flags: {
    bundle: flag.required('--bundle <json>', 'the otpEncryptionTargetBundle JSON string'),
    code: flag.required('--code <otp>', 'the one-time code'),
    signer: flag.required('--signer <hex>', 'the pinned signer public key (SEC1 hex, either form)'),
  },
  help: `
Example:
  $ svc keys encrypt-otp --bundle "$BUNDLE" --code 000000 --signer "$SIGNER"`,
});

export const decryptBundle = defineVerb({
  name: 'decrypt-bundle',
  description: 'decrypt an encryptedSessionSigningKey (base58check) and print the plaintext hex',
  flags: {
    bundle: flag.required('--bundle <base58check>', 'the encrypted bundle'),
    ...privateKeyFlags('recipient private key'),
  },
  help: `
Example:
  $ svc keys decrypt-bundle --bundle "$SEALED" --private-key-file new.key`,
});

export const keysVerbs = [
  verb(generate, () => import('./generate.js')),
  verb(stamp, () => import('./stamp.js')),
  verb(verifyStamp, () => import('./verify-stamp.js')),
  verb(encryptOtp, () => import('./encrypt-otp.js')),
  verb(decryptBundle, () => import('./decrypt-bundle.js')),
];
