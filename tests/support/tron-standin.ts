import { randomBytes } from 'node:crypto';
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { tronToHex } from '@server/modules/wallet/chain/derivation';

/**
 * A stand-in for a TRON node with TronGrid's v1 API, for the TRC20 client's tests: no TRON node
 * can run here. It answers the four endpoints the client uses with the shapes TronGrid documents
 * (developers.tron.network: GetNowBlock, GetBlockByNum, "Get events by contract address",
 * "Get events by transaction id"): blocks with a `blockID` whose first 8 bytes are the number,
 * events with `result` addresses in hex (0x and 20 bytes) beside their positional copies, pages
 * of `limit` events linked by `meta.fingerprint`. An operator checks a real endpoint the same way
 * (docs/OPERATIONS.md, USDT deposits by address).
 */
export interface TronStandIn {
  url: string;
  contract: string;
  /** Pays `units` (6 decimals) to a base58 address in a new block; returns the transaction id. */
  pay(to: string, units: bigint, from?: string): string;
  /** Several transfers in one transaction (one event each). */
  payMany(to: string[], units: bigint[]): string;
  mine(blocks: number): void;
  /** Takes the newest `blocks` blocks (and their events) off the chain: a reorganisation. */
  rollBack(blocks: number): void;
  /** Requests answered, by path (a test checks paging happened). */
  hits: Map<string, number>;
  close(): Promise<void>;
}

const GENESIS_MS = 1_700_000_000_000;
const BLOCK_MS = 3000;
const SENDER = 'TJRabPrwbZy45sbavfcjinPJC18kjpRTv8';

interface Block {
  number: number;
  id: string;
  timestamp: number;
}
interface StoredEvent {
  block: number;
  txId: string;
  index: number;
  from: string;
  to: string;
  value: bigint;
}

export async function startTronStandIn(
  o: { contract?: string; pageSize?: number } = {},
): Promise<TronStandIn> {
  const contract = o.contract ?? 'TR7NHqjeKQxGTCi8q8ZY4pL8otSzgjLj6t';
  const pageSize = o.pageSize ?? 200;
  const blocks: Block[] = [];
  let events: StoredEvent[] = [];
  const hits = new Map<string, number>();
  const addBlock = () => {
    const number = blocks.length;
    const id = number.toString(16).padStart(16, '0') + randomBytes(24).toString('hex');
    blocks.push({ number, id, timestamp: GENESIS_MS + number * BLOCK_MS });
    return number;
  };
  for (let i = 0; i < 1000; i++) addBlock();

  const blockJson = (b: Block) => ({
    blockID: b.id,
    block_header: {
      raw_data: {
        number: b.number,
        txTrieRoot: '0'.repeat(64),
        witness_address: '41' + '0'.repeat(40),
        parentHash: blocks[b.number - 1]?.id ?? '0'.repeat(64),
        version: 30,
        timestamp: b.timestamp,
      },
      witness_signature: '',
    },
  });
  const eventJson = (e: StoredEvent) => {
    const from = `0x${tronToHex(e.from)}`;
    const to = `0x${tronToHex(e.to)}`;
    return {
      block_number: e.block,
      block_timestamp: blocks[e.block]!.timestamp,
      caller_contract_address: contract,
      contract_address: contract,
      event_index: e.index,
      event_name: 'Transfer',
      result: { '0': from, '1': to, '2': String(e.value), from, to, value: String(e.value) },
      result_type: { from: 'address', to: 'address', value: 'uint256' },
      event: 'Transfer(address indexed from, address indexed to, uint256 value)',
      transaction_id: e.txId,
    };
  };
  const page = (list: StoredEvent[], offset: number) => {
    const slice = list.slice(offset, offset + pageSize);
    const more = offset + pageSize < list.length;
    return {
      data: slice.map(eventJson),
      success: true,
      meta: {
        at: Date.now(),
        page_size: slice.length,
        ...(more ? { fingerprint: Buffer.from(String(offset + pageSize)).toString('base64') } : {}),
      },
    };
  };

  const server = http.createServer((req, res) => {
    const url = new URL(req.url!, 'http://x');
    hits.set(url.pathname, (hits.get(url.pathname) ?? 0) + 1);
    let body = '';
    req.on('data', (d: Buffer) => (body += d.toString()));
    req.on('end', () => {
      const send = (status: number, json: unknown) => {
        res.writeHead(status, { 'content-type': 'application/json' });
        res.end(JSON.stringify(json));
      };
      if (req.method === 'POST' && url.pathname === '/wallet/getnowblock')
        return send(200, blockJson(blocks[blocks.length - 1]!));
      if (req.method === 'POST' && url.pathname === '/wallet/getblockbynum') {
        const num = (JSON.parse(body || '{}') as { num?: number }).num ?? -1;
        return send(200, blocks[num] ? blockJson(blocks[num]) : {});
      }
      const contractEvents = url.pathname.match(/^\/v1\/contracts\/([^/]+)\/events$/);
      if (req.method === 'GET' && contractEvents) {
        if (contractEvents[1] !== contract) return send(200, { data: [], success: true, meta: {} });
        const min = Number(url.searchParams.get('min_block_timestamp') ?? 0);
        const max = Number(url.searchParams.get('max_block_timestamp') ?? Infinity);
        const name = url.searchParams.get('event_name');
        const list = events.filter((e) => {
          const ts = blocks[e.block]!.timestamp;
          return ts >= min && ts <= max && (!name || name === 'Transfer');
        });
        const fp = url.searchParams.get('fingerprint');
        return send(200, page(list, fp ? Number(Buffer.from(fp, 'base64').toString()) : 0));
      }
      const txEvents = url.pathname.match(/^\/v1\/transactions\/([0-9a-f]{64})\/events$/);
      if (req.method === 'GET' && txEvents)
        return send(
          200,
          page(
            events.filter((e) => e.txId === txEvents[1]),
            0,
          ),
        );
      send(404, { error: 'not found' });
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;

  const record = (to: string[], units: bigint[], from: string) => {
    const block = addBlock();
    const txId = randomBytes(32).toString('hex');
    to.forEach((t, i) => events.push({ block, txId, index: i, from, to: t, value: units[i]! }));
    return txId;
  };
  return {
    url: `http://127.0.0.1:${port}`,
    contract,
    hits,
    pay: (to, units, from = SENDER) => record([to], [units], from),
    payMany: (to, units) => record(to, units, SENDER),
    mine(n) {
      for (let i = 0; i < n; i++) addBlock();
    },
    rollBack(n) {
      blocks.splice(blocks.length - n, n);
      events = events.filter((e) => e.block < blocks.length);
    },
    close: () => new Promise((resolve) => server.close(() => resolve())),
  };
}
