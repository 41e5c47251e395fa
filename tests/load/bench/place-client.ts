/**
 * The load generator of `npm run bench:orders`, in a process of its own so the benchmark's CPU
 * figure is the server's alone. Forked with IPC: it receives one `PlaceJob`, places orders over
 * keep-alive HTTP from `concurrency` lanes until `seconds` have passed, and answers with the
 * statuses and the latency histogram (HdrHistogram, compressed base64), then exits.
 */
import { randomUUID } from 'node:crypto';
import http from 'node:http';
import { build, encodeIntoCompressedBase64 } from 'hdr-histogram-js';

export interface PlaceJob {
  base: string;
  tokens: string[];
  productIds: string[];
  concurrency: number;
  seconds: number;
  /** Send a fresh Idempotency-Key with each order, as the app does. */
  keys: boolean;
}

export interface PlaceResult {
  statuses: Record<string, number>;
  /** Latency in µs, `encodeIntoCompressedBase64()`. */
  latency: string;
}

async function run(job: PlaceJob): Promise<PlaceResult> {
  const agent = new http.Agent({ keepAlive: true, maxSockets: job.concurrency });
  const place = (token: string, productId: string) =>
    new Promise<number>((resolve, reject) => {
      const body = JSON.stringify({
        productId,
        direction: Math.random() < 0.5 ? 'up' : 'down',
        amount: 1000,
        duration: 300,
      });
      const req = http.request(
        `${job.base}/api/orders`,
        {
          method: 'POST',
          agent,
          headers: {
            'content-type': 'application/json',
            authorization: `Bearer ${token}`,
            'content-length': Buffer.byteLength(body),
            ...(job.keys ? { 'idempotency-key': randomUUID() } : {}),
          },
        },
        (res) => {
          res.resume();
          res.on('end', () => resolve(res.statusCode ?? 0));
        },
      );
      req.on('error', reject);
      req.end(body);
    });
  const latency = build({
    lowestDiscernibleValue: 1,
    highestTrackableValue: 60_000_000,
    numberOfSignificantValueDigits: 3,
  });
  const statuses: Record<string, number> = {};
  const until = Date.now() + job.seconds * 1000;
  let n = 0;
  await Promise.all(
    Array.from({ length: job.concurrency }, async (_, lane) => {
      while (Date.now() < until) {
        const started = performance.now();
        const i = n++;
        const status = await place(
          job.tokens[(lane + i) % job.tokens.length]!,
          job.productIds[i % job.productIds.length]!,
        );
        latency.recordValue(Math.round((performance.now() - started) * 1000));
        statuses[status] = (statuses[status] ?? 0) + 1;
      }
    }),
  );
  agent.destroy();
  return { statuses, latency: encodeIntoCompressedBase64(latency) };
}

process.once('message', (job: PlaceJob) => {
  void run(job).then(
    (result) => process.send!(result, () => process.exit(0)),
    (err: unknown) => {
      console.error(err);
      process.exit(1);
    },
  );
});
