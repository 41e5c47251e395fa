import { HDKey } from '@scure/bip32';
import { mnemonicToSeedSync } from '@scure/bip39';
import { describe, expect, it } from 'vitest';
import { loadConfig } from '@server/config';
import { chainPlaceholders } from '@server/config.chain';
import {
  deriveAddress,
  PrivateKeyRefused,
  receivingChain,
  tronFromHex,
  tronToHex,
} from './derivation';

/** BIP-32's test vectors 1 and 2 (bip-0032.mediawiki): public derivation from the xpubs. */
const bip32 = {
  v1: {
    seed: '000102030405060708090a0b0c0d0e0f',
    m0h: 'xpub68Gmy5EdvgibQVfPdqkBBCHxA5htiqg55crXYuXoQRKfDBFA1WEjWgP6LHhwBZeNK1VTsfTFUHCdrfp1bgwQ9xv5ski8PX9rL2dZXvgGDnw',
    m0h1: 'xpub6ASuArnXKPbfEwhqN6e3mwBcDTgzisQN1wXN9BJcM47sSikHjJf3UFHKkNAWbWMiGj7Wf5uMash7SyYq527Hqck2AxYysAA7xmALppuCkwQ',
    m0hPrivate:
      'xprv9uHRZZhk6KAJC1avXpDAp4MDc3sQKNxDiPvvkX8Br5ngLNv1TxvUxt4cV1rGL5hj6KCesnDYUhd7oWgT11eZG7XnxHrnYeSvkzY7d2bhkJ7',
  },
  v2: {
    m: 'xpub661MyMwAqRbcFW31YEwpkMuc5THy2PSt5bDMsktWQcFF8syAmRUapSCGu8ED9W6oDMSgv6Zz8idoc4a6mr8BDzTJY47LJhkJ8UB7WEGuduB',
    m0: 'xpub69H7F5d8KSRgmmdJg2KhpAK8SR3DjMwAdkxj3ZuxV27CprR9LgpeyGmXUbC6wb7ERfvrnKZjXoUmmDznezpbZb7ap6r1D3tgFxHmwMkQTPH',
  },
};

/**
 * BIP-44 on BIP-39's test mnemonic ("abandon" ×11, "about"): the addresses every wallet derives
 * (MetaMask, Trezor, TronLink and Ian Coleman's tool agree on them).
 */
const mnemonic =
  'abandon abandon abandon abandon abandon abandon abandon abandon abandon abandon abandon about';
const bip44 = {
  ERC20: ['0x9858effd232b4033e47d90003d41ec34ecaeda94'],
  TRC20: [
    'TUEZSdKsoDHQMeZwihtdoBiN46zxhGWYdH',
    'TSeJkUh4Qv67VNFwY8LaAxERygNdy6NQZK',
    'TYJPRrdB5APNeRs4R7fYZSwW3TcrTKw2gx',
  ],
};

describe('deposit address derivation', () => {
  it('derives BIP-32 test vectors 1 and 2 from their extended public keys', () => {
    expect(HDKey.fromExtendedKey(bip32.v1.m0h).deriveChild(1).publicExtendedKey).toBe(
      bip32.v1.m0h1,
    );
    expect(HDKey.fromExtendedKey(bip32.v2.m).deriveChild(0).publicExtendedKey).toBe(bip32.v2.m0);
  });

  it('derives the BIP-44 addresses of the test mnemonic from the account keys alone', () => {
    const root = HDKey.fromMasterSeed(mnemonicToSeedSync(mnemonic));
    const eth = root.derive("m/44'/60'/0'").publicExtendedKey;
    const tron = root.derive("m/44'/195'/0'").publicExtendedKey;
    // The demo keys of `npm start` are exactly these public account keys.
    expect(eth).toBe(chainPlaceholders.USDT_ERC20_XPUB);
    expect(tron).toBe(chainPlaceholders.USDT_TRC20_XPUB);
    expect(bip44.ERC20.map((_, i) => deriveAddress(receivingChain(eth), 'ERC20', i))).toEqual(
      bip44.ERC20,
    );
    expect(bip44.TRC20.map((_, i) => deriveAddress(receivingChain(tron), 'TRC20', i))).toEqual(
      bip44.TRC20,
    );
  });

  it('encodes TRON addresses in base58check, as the USDT contract’s known address', () => {
    // TRON's USDT contract: TR7NHq… is 41a614f8…13c (tronscan shows both forms).
    const hex = 'a614f803b6fd780986a42c78ec9c7f77e6ded13c';
    expect(tronFromHex(`41${hex}`)).toBe('TR7NHqjeKQxGTCi8q8ZY4pL8otSzgjLj6t');
    expect(tronFromHex(`0x${hex}`)).toBe('TR7NHqjeKQxGTCi8q8ZY4pL8otSzgjLj6t');
    expect(tronToHex('TR7NHqjeKQxGTCi8q8ZY4pL8otSzgjLj6t')).toBe(hex);
    // One character off: the checksum refuses it.
    expect(() => tronToHex('TR7NHqjeKQxGTCi8q8ZY4pL8otSzgjLj6u')).toThrow();
  });

  it('gives every user a different address, the same each time', () => {
    const chain = receivingChain(chainPlaceholders.USDT_TRC20_XPUB);
    const addresses = Array.from({ length: 50 }, (_, i) => deriveAddress(chain, 'TRC20', i + 1));
    expect(new Set(addresses).size).toBe(50);
    expect(deriveAddress(chain, 'TRC20', 7)).toBe(addresses[6]);
  });

  it('refuses an extended private key, in code and in the configuration', () => {
    expect(() => receivingChain(bip32.v1.m0hPrivate)).toThrow(PrivateKeyRefused);
    for (const name of ['USDT_ERC20_XPUB', 'USDT_TRC20_XPUB'])
      expect(() => loadConfig({ [name]: bip32.v1.m0hPrivate })).toThrow(
        /is an extended private key; configure the account-level extended public key/,
      );
    expect(() => loadConfig({ USDT_ERC20_XPUB: 'xpub-not-a-key' })).toThrow(
      /USDT_ERC20_XPUB.*must be an extended public key/,
    );
  });

  it('refuses the demo keys in production', () => {
    expect(() => loadConfig({ NODE_ENV: 'production' }, 'api')).toThrow(
      /USDT_TRC20_XPUB.*demo key of a public test wallet/,
    );
  });
});
