/** `svc keys …`: the signing core from a shell. Declares flags only; each verb loads on run. */
import type { Command } from 'commander';
import { lazyAction } from '../lazy.cjs';

/** Adds the `keys` verbs to the `keys` command that commands/program.cts created. */
export function registerKeys(keys: Command): void {

  keys
    .command('generate')
    .description('generate a P-256 key pair')
    .option('--uncompressed', 'print the public key uncompressed (04…, 130 hex)')
    .action(lazyAction(() => import('./generate.js'), (_a, o) => ({ uncompressed: Boolean(o.uncompressed) })));

  keys
    .command('stamp')
    .description('print the Service-Wallet-Signature header value for a payload (payload from stdin if no flag)')
    .option('--private-key <hex>', 'session private key (64 hex)')
    .option('--private-key-file <path>', 'read the private key from a file')
    .option('--payload <text>', 'the exact payloadToSign')
    .option('--payload-file <path>', 'read the payload from a file (bytes as they are)')
    .action(
      lazyAction(() => import('./stamp.js'), (_a, o) => ({
        privateKey: o.privateKey as string | undefined,
        privateKeyFile: o.privateKeyFile as string | undefined,
        payload: o.payload as string | undefined,
        payloadFile: o.payloadFile as string | undefined,
      })),
    );

  keys
    .command('verify-stamp')
    .description('verify a Service-Wallet-Signature over a payload; prints the signing public key')
    .requiredOption('--stamp <value>', 'the header value')
    .option('--payload <text>', 'the exact payload that was signed')
    .option('--payload-file <path>', 'read the payload from a file')
    .action(
      lazyAction(() => import('./verify-stamp.js'), (_a, o) => ({
        stamp: o.stamp as string,
        payload: o.payload as string | undefined,
        payloadFile: o.payloadFile as string | undefined,
      })),
    );

  keys
    .command('encrypt-otp')
    .description('encrypt an OTP code to an otpEncryptionTargetBundle (checks the bundle signer)')
    .requiredOption('--bundle <json>', 'the otpEncryptionTargetBundle JSON string')
    .requiredOption('--code <otp>', 'the one-time code')
    .requiredOption('--signer <hex>', 'the pinned signer public key (uncompressed hex)')
    .action(
      lazyAction(() => import('./encrypt-otp.js'), (_a, o) => ({
        bundle: o.bundle as string,
        code: o.code as string,
        signer: o.signer as string,
      })),
    );

  keys
    .command('decrypt-bundle')
    .description('decrypt an encryptedSessionSigningKey (base58check) and print the plaintext hex')
    .requiredOption('--bundle <base58check>', 'the encrypted bundle')
    .option('--private-key <hex>', 'recipient private key (64 hex)')
    .option('--private-key-file <path>', 'read the private key from a file')
    .action(
      lazyAction(() => import('./decrypt-bundle.js'), (_a, o) => ({
        bundle: o.bundle as string,
        privateKey: o.privateKey as string | undefined,
        privateKeyFile: o.privateKeyFile as string | undefined,
      })),
    );
}
