/** `svc keys …`: the signing core from a shell. Declares flags only; each verb loads on run. */
import type { Command } from 'commander';
import { lazyAction } from '../lazy.cjs';

type Flags = Record<string, unknown>;

/** --private-key / --private-key-file, worded alike on every verb that takes a key. */
function withPrivateKey(command: Command, what: string): Command {
  return command
    .option('--private-key <hex>', `${what} (64 hex)`)
    .option('--private-key-file <path>', 'read the private key from a file (keeps it out of the process list)');
}

function privateKeyOf(o: Flags) {
  return { privateKey: o.privateKey as string | undefined, privateKeyFile: o.privateKeyFile as string | undefined };
}

/** --payload / --payload-file; without either the payload is read from stdin. */
function withPayload(command: Command): Command {
  return command
    .option('--payload <text>', 'the exact payloadToSign (default: read from stdin)')
    .option('--payload-file <path>', 'read the payload from a file (bytes as they are)');
}

function payloadOf(o: Flags) {
  return { payload: o.payload as string | undefined, payloadFile: o.payloadFile as string | undefined };
}

/** Adds the `keys` verbs to the `keys` command that commands/program.cts created. */
export function registerKeys(keys: Command): void {
  keys
    .command('generate')
    .description('generate a P-256 key pair')
    .option('--uncompressed', 'print the public key uncompressed (04…, 130 hex)')
    .action(lazyAction(() => import('./generate.js'), (_a, o) => ({ uncompressed: Boolean(o.uncompressed) })));

  withPayload(withPrivateKey(keys.command('stamp'), 'session private key'))
    .description('print the Service-Wallet-Signature header value for a payload (payload from stdin if no flag)')
    .action(lazyAction(() => import('./stamp.js'), (_a, o) => ({ ...privateKeyOf(o), ...payloadOf(o) })));

  withPayload(keys.command('verify-stamp').requiredOption('--stamp <value>', 'the header value'))
    .description('verify a Service-Wallet-Signature over a payload; prints the signing public key')
    .action(lazyAction(() => import('./verify-stamp.js'), (_a, o) => ({ stamp: o.stamp as string, ...payloadOf(o) })));

  keys
    .command('encrypt-otp')
    .description('encrypt an OTP code to an otpEncryptionTargetBundle (checks the bundle signer)')
    .requiredOption('--bundle <json>', 'the otpEncryptionTargetBundle JSON string')
    .requiredOption('--code <otp>', 'the one-time code')
    .requiredOption('--signer <hex>', 'the pinned signer public key (SEC1 hex, either form)')
    .action(
      lazyAction(() => import('./encrypt-otp.js'), (_a, o) => ({ bundle: o.bundle as string, code: o.code as string, signer: o.signer as string })),
    );

  withPrivateKey(keys.command('decrypt-bundle').requiredOption('--bundle <base58check>', 'the encrypted bundle'), 'recipient private key')
    .description('decrypt an encryptedSessionSigningKey (base58check) and print the plaintext hex')
    .action(lazyAction(() => import('./decrypt-bundle.js'), (_a, o) => ({ bundle: o.bundle as string, ...privateKeyOf(o) })));
}
