import net from 'node:net';

/**
 * A TCP proxy in front of one server that a test can break (the chaos tests' network faults):
 * `pass` forwards; `refuse` resets every connection and refuses new ones (the server is down);
 * `blackhole` accepts and keeps connections but forwards nothing either way (a partition: the
 * peer waits until its own timeouts fire).
 */
export type FaultMode = 'pass' | 'refuse' | 'blackhole';

export interface FaultProxy {
  port: number;
  mode(m: FaultMode): void;
  close(): Promise<void>;
}

export async function startFaultProxy(targetPort: number, host = '127.0.0.1'): Promise<FaultProxy> {
  let mode: FaultMode = 'pass';
  const pairs = new Set<{ client: net.Socket; upstream: net.Socket | null }>();
  const server = net.createServer((client) => {
    client.on('error', () => undefined);
    if (mode === 'refuse') return client.resetAndDestroy();
    const pair = { client, upstream: null as net.Socket | null };
    pairs.add(pair);
    client.on('close', () => {
      pairs.delete(pair);
      pair.upstream?.destroy();
    });
    if (mode === 'blackhole') return; // held, never forwarded
    const upstream = net.connect(targetPort, host);
    pair.upstream = upstream;
    upstream.on('error', () => client.destroy());
    upstream.on('close', () => client.destroy());
    client.pipe(upstream).pipe(client);
  });
  await new Promise<void>((resolve) => server.listen(0, host, resolve));
  const port = (server.address() as net.AddressInfo).port;
  return {
    port,
    mode(m) {
      mode = m;
      for (const pair of pairs) {
        if (m === 'refuse') {
          pair.client.resetAndDestroy();
          pair.upstream?.destroy();
        } else if (m === 'blackhole') {
          pair.client.unpipe();
          pair.upstream?.unpipe();
          pair.client.pause();
          pair.upstream?.pause();
        }
      }
    },
    async close() {
      for (const { client, upstream } of pairs) {
        client.destroy();
        upstream?.destroy();
      }
      await new Promise<void>((resolve) => server.close(() => resolve()));
    },
  };
}
