/**
 * EIP-191 personal-message signatures, the description's ownership proof for EVM wallets: the
 * signer of `signature` (65 bytes r‖s‖v, hex) over `message` must be the wallet's address.
 */
import { secp256k1 } from '@noble/curves/secp256k1.js';
import { keccak_256 } from '@noble/hashes/sha3.js';
import { bytesToHex, hexToBytes } from '../../../crypto/hex.js';

export function eip191Digest(message: string): Uint8Array {
  const bytes = new TextEncoder().encode(message);
  return keccak_256(
    new Uint8Array([...new TextEncoder().encode(`\x19Ethereum Signed Message:\n${bytes.length}`), ...bytes]),
  );
}

/** The 0x address of an uncompressed or compressed secp256k1 public key. */
export function evmAddress(publicKey: Uint8Array): string {
  const uncompressed = secp256k1.Point.fromBytes(publicKey).toBytes(false);
  return `0x${bytesToHex(keccak_256(uncompressed.subarray(1)).subarray(12))}`;
}

/** Whether signature (0x-hex r‖s‖v, v 27/28 or 0/1) over message was made by address. */
export function verifyEip191(address: string, message: string, signature: string): boolean {
  const hex = signature.startsWith('0x') ? signature.slice(2) : signature;
  if (!/^[0-9a-fA-F]{130}$/.test(hex)) return false;
  const raw = hexToBytes(hex);
  const v = raw[64]! >= 27 ? raw[64]! - 27 : raw[64]!;
  if (v > 1) return false;
  try {
    const recovered = secp256k1.recoverPublicKey(new Uint8Array([v, ...raw.subarray(0, 64)]), eip191Digest(message), {
      prehash: false,
    });
    return evmAddress(recovered) === address.toLowerCase();
  } catch {
    return false;
  }
}
