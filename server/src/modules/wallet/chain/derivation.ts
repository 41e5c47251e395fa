import { HDKey } from '@scure/bip32';
import { base58check } from '@scure/base';
import { secp256k1 } from '@noble/curves/secp256k1.js';
import { keccak_256 } from '@noble/hashes/sha3.js';
import { sha256 } from '@noble/hashes/sha2.js';
import { bytesToHex, hexToBytes } from '@noble/hashes/utils.js';
import type { CoinNetwork } from '@shared/wallet/model';

/**
 * Deposit addresses derived from the operator's extended public keys (docs/OPERATIONS.md, USDT
 * deposits by address). The operator exports the account-level key of each network's BIP-44 path
 * (m/44'/60'/0' for Ethereum, m/44'/195'/0' for TRON); the user with id n receives on the
 * receiving chain's address n: m/44'/coin'/0'/0/n. The app holds public keys only: an extended
 * private key is refused where the configuration is read, so nothing here can spend.
 */

const tronBase58 = base58check(sha256);
/** TRON's address prefix byte (mainnet): an address is 0x41 and the Ethereum-style 20 bytes. */
const TRON_PREFIX = 0x41;

export class PrivateKeyRefused extends Error {
  constructor() {
    super(
      'is an extended private key; configure the account-level extended public key (xpub…): the app never holds a key that can spend',
    );
  }
}

/** The receiving chain (…/0) of an account-level extended public key; throws on a private one. */
export function receivingChain(extendedKey: string): HDKey {
  const key = HDKey.fromExtendedKey(extendedKey.trim());
  if (key.privateKey) throw new PrivateKeyRefused();
  return key.deriveChild(0);
}

/** The 20 bytes both networks' addresses are made of: keccak-256 of the uncompressed key, last 20. */
function accountBytes(compressed: Uint8Array): Uint8Array {
  const uncompressed = secp256k1.Point.fromBytes(compressed).toBytes(false);
  return keccak_256(uncompressed.subarray(1)).subarray(12);
}

/** An Ethereum address in lower case (how it is stored and compared; shown checksummed). */
export function ethereumAddress(compressed: Uint8Array): string {
  return `0x${bytesToHex(accountBytes(compressed))}`;
}

/** A TRON address in its base58check form (T…). */
export function tronAddress(compressed: Uint8Array): string {
  return tronFromHex(bytesToHex(accountBytes(compressed)));
}

/** TRON's base58 form of 20 address bytes given as hex (with or without 0x or the 41 prefix). */
export function tronFromHex(hex: string): string {
  const plain = hex.toLowerCase().replace(/^0x/, '');
  const body = plain.length === 42 && plain.startsWith('41') ? plain.slice(2) : plain;
  if (!/^[0-9a-f]{40}$/.test(body)) throw new Error(`not a 20-byte address: ${hex}`);
  return tronBase58.encode(Uint8Array.of(TRON_PREFIX, ...hexToBytes(body)));
}

/** The 20 address bytes (hex, no prefix) of a TRON base58 address; throws on a bad checksum. */
export function tronToHex(address: string): string {
  const bytes = tronBase58.decode(address);
  if (bytes.length !== 21 || bytes[0] !== TRON_PREFIX) throw new Error('not a TRON address');
  return bytesToHex(bytes.subarray(1));
}

/** The address of `index` on a network's receiving chain. */
export function deriveAddress(chain: HDKey, network: CoinNetwork, index: number): string {
  const child = chain.deriveChild(index);
  const pub = child.publicKey;
  if (!pub) throw new Error('derivation gave no public key');
  return network === 'ERC20' ? ethereumAddress(pub) : tronAddress(pub);
}
