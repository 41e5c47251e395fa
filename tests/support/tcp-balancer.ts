import net from 'node:net';

/**
 * A minimal TCP load balancer for cluster tests (what nginx does in docker-compose): each new
 * connection goes to the next backend that accepts it, round robin; a dead backend is skipped.
 */
export async function startBalancer(
  backends: number[],
  listenPort = 0,
): Promise<{ port: number; close(): Promise<void> }> {
  let next = 0;
  const open = new Set<net.Socket>();
  const connectTo = (port: number) =>
    new Promise<net.Socket>((resolve, reject) => {
      const s = net.connect(port, '127.0.0.1');
      s.once('connect', () => resolve(s));
      s.once('error', reject);
    });
  const server = net.createServer((client) => {
    open.add(client);
    client.on('close', () => open.delete(client));
    client.on('error', () => undefined);
    client.pause();
    void (async () => {
      for (let i = 0; i < backends.length; i++) {
        const port = backends[next++ % backends.length]!;
        try {
          const upstream = await connectTo(port);
          open.add(upstream);
          upstream.on('close', () => open.delete(upstream));
          upstream.on('error', () => client.destroy());
          client.on('close', () => upstream.destroy());
          upstream.on('close', () => client.destroy());
          client.pipe(upstream).pipe(client);
          client.resume();
          return;
        } catch {
          /* try the next backend */
        }
      }
      client.destroy();
    })();
  });
  await new Promise<void>((r) => server.listen(listenPort, '127.0.0.1', r));
  const port = (server.address() as net.AddressInfo).port;
  return {
    port,
    close: () =>
      new Promise<void>((resolve) => {
        for (const s of open) s.destroy();
        server.close(() => resolve());
      }),
  };
}
