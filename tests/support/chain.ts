import { spawn } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';
import solc from 'solc';
import {
  createPublicClient,
  createWalletClient,
  http,
  numberToHex,
  type Abi,
  type Address,
  type Hex,
} from 'viem';
import { hardhat } from 'viem/chains';
import { repoRoot } from './processes';
import { freePort } from './redis-server';

/**
 * A real local Ethereum node for the watcher's tests: Hardhat's network (`hardhat node`, from
 * npm, nothing downloaded), with the test ERC-20 of tests/chain/TestUSDT.sol compiled by solc-js
 * and deployed on it. Blocks are mined per transaction and on demand; `snapshot`/`revert` roll
 * the chain back for reorganisations.
 */
export interface LocalChain {
  url: string;
  token: Address;
  /** Hardhat's first unlocked account: deploys the token and holds its supply. */
  treasury: Address;
  /** Sends `units` base units (6 decimals) of the token to `to`; resolves once mined. */
  pay(to: string, units: bigint, from?: Address): Promise<{ txHash: Hex; block: number }>;
  /** One transaction paying several receivers (one log each). */
  payMany(to: string[], units: bigint[]): Promise<{ txHash: Hex; block: number }>;
  mine(blocks: number): Promise<void>;
  head(): Promise<number>;
  snapshot(): Promise<Hex>;
  revert(id: Hex): Promise<void>;
  /** Hardhat's other unlocked accounts (senders other than the treasury). */
  accounts: Address[];
  stop(): Promise<void>;
}

let compiled: { abi: Abi; bytecode: Hex } | null = null;

/** The test token, compiled from its committed source. */
export function testToken(): { abi: Abi; bytecode: Hex } {
  if (compiled) return compiled;
  const source = fs.readFileSync(path.join(repoRoot, 'tests/chain/TestUSDT.sol'), 'utf8');
  const input = {
    language: 'Solidity',
    sources: { 'TestUSDT.sol': { content: source } },
    settings: {
      optimizer: { enabled: true, runs: 200 },
      outputSelection: { '*': { '*': ['abi', 'evm.bytecode.object'] } },
    },
  };
  // solc-js ships no types: its `compile` takes and gives JSON text.
  const compile = (solc as { compile(input: string): string }).compile;
  const out = JSON.parse(compile(JSON.stringify(input))) as {
    errors?: { severity: string; formattedMessage: string }[];
    contracts: Record<string, Record<string, { abi: Abi; evm: { bytecode: { object: string } } }>>;
  };
  const errors = (out.errors ?? []).filter((e) => e.severity === 'error');
  if (errors.length) throw new Error(errors.map((e) => e.formattedMessage).join('\n'));
  const c = out.contracts['TestUSDT.sol']!.TestUSDT!;
  compiled = { abi: c.abi, bytecode: `0x${c.evm.bytecode.object}` };
  return compiled;
}

export async function startLocalChain(): Promise<LocalChain> {
  const port = await freePort();
  const child = spawn(
    path.join(repoRoot, 'node_modules/.bin/hardhat'),
    ['node', '--config', 'hardhat.config.cjs', '--hostname', '127.0.0.1', '--port', String(port)],
    {
      cwd: path.join(repoRoot, 'tests/chain'),
      env: { ...process.env, HARDHAT_DISABLE_TELEMETRY_PROMPT: 'true', NO_COLOR: '1' },
      stdio: ['ignore', 'pipe', 'pipe'],
    },
  );
  let out = '';
  child.stdout.on('data', (d: Buffer) => (out += d.toString()));
  child.stderr.on('data', (d: Buffer) => (out += d.toString()));
  const exited = new Promise<void>((resolve) => child.once('exit', () => resolve()));
  const url = `http://127.0.0.1:${port}`;
  const transport = http(url, { timeout: 30_000 });
  const reader = createPublicClient({ transport, pollingInterval: 50 });
  // Ready once it says it listens (its first answers can take a while on a busy machine).
  const deadline = Date.now() + 120_000;
  while (!out.includes('Started HTTP')) {
    if (Date.now() > deadline || child.exitCode !== null)
      throw new Error(`hardhat node did not start:\n${out}`);
    await new Promise((r) => setTimeout(r, 100));
  }
  const rpc = (method: string, params: unknown[] = []): Promise<unknown> =>
    reader.request({ method: method as never, params: params as never });
  const accounts = (await rpc('eth_accounts')) as Address[];
  const treasury = accounts[0]!;
  const wallet = createWalletClient({ transport, account: treasury, chain: hardhat });
  const { abi, bytecode } = testToken();
  const deployHash = await wallet.deployContract({
    abi,
    bytecode,
    args: [10n ** 15n], // a billion USDT
  });
  const deployed = await reader.waitForTransactionReceipt({ hash: deployHash });
  const token = deployed.contractAddress!;
  const mined = async (hash: Hex) => {
    const r = await reader.waitForTransactionReceipt({ hash });
    if (r.status !== 'success') throw new Error(`transaction ${hash} reverted`);
    return { txHash: hash, block: Number(r.blockNumber) };
  };

  return {
    url,
    token,
    treasury,
    accounts: accounts.slice(1),
    async pay(to, units, from = treasury) {
      const hash = await wallet.writeContract({
        address: token,
        abi,
        functionName: 'transfer',
        args: [to as Address, units],
        account: from,
      });
      return mined(hash);
    },
    async payMany(to, units) {
      const hash = await wallet.writeContract({
        address: token,
        abi,
        functionName: 'transferMany',
        args: [to as Address[], units],
      });
      return mined(hash);
    },
    async mine(blocks) {
      await rpc('hardhat_mine', [numberToHex(blocks)]);
    },
    head: async () => Number(await reader.getBlockNumber({ cacheTime: 0 })),
    snapshot: async () => (await rpc('evm_snapshot')) as Hex,
    async revert(id) {
      if (!(await rpc('evm_revert', [id]))) throw new Error(`evm_revert ${id} refused`);
    },
    async stop() {
      if (child.exitCode === null) child.kill('SIGTERM');
      await exited;
    },
  };
}
