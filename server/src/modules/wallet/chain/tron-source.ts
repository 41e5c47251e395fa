import { tronFromHex } from './derivation';
import { ChainUnavailable, type ChainSource, type ChainTransfer } from './source';

/** An event as TronGrid's v1 API answers it (GET /v1/contracts/{c}/events, /v1/transactions/{id}/events). */
export interface TronEvent {
  block_number: number;
  block_timestamp: number;
  contract_address: string;
  event_index: number;
  event_name: string;
  result: Record<string, string>;
  transaction_id: string;
}
interface TronEventPage {
  data?: TronEvent[];
  success?: boolean;
  meta?: { fingerprint?: string };
}
/** A block as the node's HTTP API answers it (POST /wallet/getnowblock, /wallet/getblockbynum). */
export interface TronBlock {
  blockID?: string;
  block_header?: { raw_data?: { number?: number; timestamp?: number } };
}

/** TronGrid gives event addresses as hex (0x and 20 bytes, or 41 and 20 bytes); a node may give base58. */
const tronAddress = (a: string) => (a.startsWith('T') ? a : tronFromHex(a));

/**
 * USDT on TRON through a node's HTTP API with TronGrid's v1 extension (`TRON_API_URL`): the head
 * (`/wallet/getnowblock`), blocks by number (`/wallet/getblockbynum`), the contract's `Transfer`
 * events by block time (`/v1/contracts/{contract}/events`), and one transaction's events for a
 * claim (`/v1/transactions/{id}/events`).
 */
export function tronSource(o: {
  apiUrl: string;
  apiKey?: string;
  contract: string;
  timeoutMs?: number;
}): ChainSource {
  const base = o.apiUrl.replace(/\/+$/, '');
  const headers: Record<string, string> = {
    'content-type': 'application/json',
    ...(o.apiKey ? { 'TRON-PRO-API-KEY': o.apiKey } : {}),
  };
  const ask = async <T>(path: string, body?: unknown): Promise<T> => {
    try {
      const res = await fetch(`${base}${path}`, {
        method: body === undefined ? 'GET' : 'POST',
        headers,
        body: body === undefined ? undefined : JSON.stringify(body),
        signal: AbortSignal.timeout(o.timeoutMs ?? 10_000),
      });
      if (!res.ok) throw new Error(`${path}: HTTP ${res.status}`);
      return (await res.json()) as T;
    } catch (err) {
      throw new ChainUnavailable('TRC20', err);
    }
  };
  const block = async (num: number) => {
    const b = await ask<TronBlock>('/wallet/getblockbynum', { num });
    const raw = b.block_header?.raw_data;
    if (!b.blockID || raw?.number !== num) throw new ChainUnavailable('TRC20', `no block ${num}`);
    return { hash: b.blockID.toLowerCase(), timestamp: raw.timestamp ?? 0 };
  };
  const isOurs = (e: TronEvent) =>
    e.event_name === 'Transfer' && tronAddress(e.contract_address) === o.contract;
  const toTransfers = async (events: TronEvent[]): Promise<ChainTransfer[]> => {
    const hashes = new Map<number, string>();
    for (const n of new Set(events.map((e) => e.block_number)))
      hashes.set(n, (await block(n)).hash);
    return events.map((e) => ({
      txHash: e.transaction_id.toLowerCase(),
      logIndex: e.event_index,
      blockNumber: e.block_number,
      blockHash: hashes.get(e.block_number)!,
      from: tronAddress(e.result.from ?? e.result['0']!),
      to: tronAddress(e.result.to ?? e.result['1']!),
      value: BigInt(e.result.value ?? e.result['2']!),
    }));
  };

  return {
    network: 'TRC20',
    async head() {
      const b = await ask<TronBlock>('/wallet/getnowblock', {});
      const n = b.block_header?.raw_data?.number;
      if (typeof n !== 'number') throw new ChainUnavailable('TRC20', 'no head block');
      return n;
    },
    async transfers(from, to) {
      const [first, last] = await Promise.all([block(from), block(to)]);
      const events: TronEvent[] = [];
      let fingerprint: string | undefined;
      do {
        const q = new URLSearchParams({
          event_name: 'Transfer',
          min_block_timestamp: String(first.timestamp),
          max_block_timestamp: String(last.timestamp),
          order_by: 'block_timestamp,asc',
          limit: '200',
          ...(fingerprint ? { fingerprint } : {}),
        });
        const page = await ask<TronEventPage>(`/v1/contracts/${o.contract}/events?${q}`);
        events.push(...(page.data ?? []));
        fingerprint = page.meta?.fingerprint;
      } while (fingerprint);
      const inRange = events.filter(
        (e) => e.block_number >= from && e.block_number <= to && isOurs(e),
      );
      inRange.sort((a, b) => a.block_number - b.block_number || a.event_index - b.event_index);
      return toTransfers(inRange);
    },
    async transfersOf(txHash) {
      const page = await ask<TronEventPage>(`/v1/transactions/${txHash.toLowerCase()}/events`);
      if (!page.data?.length) return null;
      return toTransfers(page.data.filter(isOurs));
    },
  };
}
