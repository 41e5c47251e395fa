import { z } from 'zod';
import { receivingChain } from '@server/modules/wallet/chain/derivation';

/**
 * The variables of USDT deposits by address (docs/OPERATIONS.md, USDT deposits by address): the
 * extended public keys users' addresses are derived from, and the chain nodes the watcher follows.
 * Part of the one schema in config.ts.
 */

/**
 * The demo keys `npm start` derives addresses from: the account keys (m/44'/60'/0',
 * m/44'/195'/0') of BIP-39's public test mnemonic "abandon … about". Anyone can spend from them:
 * the page labels their addresses demo, and a production api refuses to start with them.
 */
export const chainPlaceholders = {
  USDT_ERC20_XPUB:
    'xpub6DCoCpSuQZB2jawqnGMEPS63ePKWkwWPH4TU45Q7LPXWuNd8TMtVxRrgjtEshuqpK3mdhaWHPFsBngh5GFZaM6si3yZdUsT8ddYM3PwnATt',
  USDT_TRC20_XPUB:
    'xpub6D1AabNHCupeiLM65ZR9UStMhJ1vCpyV4XbZdyhMZBiJXALQtmn9p42VTQckoHVn8WNqS7dqnJokZHAHcHGoaQgmv8D45oNUKx6DZMNZBCd',
} as const;

/** An account-level extended public key; an extended private key is refused with its reason. */
const extendedPublicKey = z.string().superRefine((v, ctx) => {
  try {
    receivingChain(v);
  } catch (err) {
    const message = (err as Error).message;
    ctx.addIssue({
      code: 'custom',
      message: message.startsWith('is an extended private key')
        ? message
        : 'must be an extended public key (xpub…) of the network’s BIP-44 account',
    });
  }
});

const whole = (min: number, max: number) =>
  z
    .string()
    .regex(/^\d+$/, 'must be a whole number')
    .transform(Number)
    .pipe(z.number().int().min(min).max(max));

const httpUrl = z
  .string()
  .refine((v) => /^https?:\/\/[^\s]+$/.test(v), 'must be a URL starting with http:// or https://');

export const chainConfigShape = {
  USDT_ERC20_XPUB: extendedPublicKey.default(chainPlaceholders.USDT_ERC20_XPUB),
  USDT_TRC20_XPUB: extendedPublicKey.default(chainPlaceholders.USDT_TRC20_XPUB),
  // Ethereum: any JSON-RPC node; the USDT contract (mainnet's by default).
  ETH_RPC_URL: httpUrl.optional(),
  ETH_USDT_CONTRACT: z
    .string()
    .regex(/^0x[0-9a-fA-F]{40}$/, 'must be 0x followed by 40 hex digits')
    .transform((v) => v.toLowerCase())
    .default('0xdac17f958d2ee523a2206206994597c13d831ec7'),
  ERC20_CONFIRMATIONS: whole(1, 1000).default(12),
  // Where a watcher with no cursor yet begins (default: the confirmed head when it first runs).
  ETH_START_BLOCK: whole(0, Number.MAX_SAFE_INTEGER).optional(),
  // Blocks asked for in one eth_getLogs (nodes cap the range or the answer's size).
  ETH_LOG_RANGE: whole(1, 100_000).default(500),
  // TRON: a node's HTTP API with TronGrid's endpoints; the USDT contract (mainnet's by default).
  TRON_API_URL: httpUrl.optional(),
  TRON_API_KEY: z.string().min(1).optional(),
  TRON_USDT_CONTRACT: z
    .string()
    .regex(/^T[1-9A-HJ-NP-Za-km-z]{33}$/, 'must be T followed by 33 base58 characters')
    .default('TR7NHqjeKQxGTCi8q8ZY4pL8otSzgjLj6t'),
  TRC20_CONFIRMATIONS: whole(1, 1000).default(20),
  TRON_START_BLOCK: whole(0, Number.MAX_SAFE_INTEGER).optional(),
  // How often the watcher asks its node for the head (ms).
  CHAIN_POLL_MS: whole(50, 600_000).default(3000),
  // Credited deposits above this many minor units wait for an operator instead (10 000.00).
  CHAIN_AUTO_CREDIT_MAX: whole(0, Number.MAX_SAFE_INTEGER).default(1_000_000),
};
