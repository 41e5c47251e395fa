import { createServer } from 'node:http';
import { Server } from 'socket.io';
import { createAdapter } from '@socket.io/redis-adapter';
import { Redis } from 'ioredis';
import { installProbe, send } from '../ipc';

/**
 * (a) Socket.IO as its documentation teaches it: `new Server(httpServer)` with default options
 * (polling and websocket, Engine.IO's default perMessageDeflate), the Redis adapter, and rooms
 * joined on request. Ticks arrive from a publisher process through @socket.io/redis-emitter.
 * BENCH_PORT, BENCH_REDIS_URL, BENCH_KEY come from the benchmark.
 */
installProbe();
const port = Number(process.env.BENCH_PORT);
const redisUrl = process.env.BENCH_REDIS_URL!;
const key = process.env.BENCH_KEY!;

const httpServer = createServer();
const io = new Server(httpServer);
const pub = new Redis(redisUrl);
// No INFO ready check on a subscriber (redis/ioredis#2037), as the app's own adapter.
const sub = pub.duplicate({ enableReadyCheck: false });
io.adapter(createAdapter(pub, sub, { key }));

io.on('connection', (socket) => {
  socket.on('subscribe', (channels: unknown, ack: unknown) => {
    if (typeof ack !== 'function') return;
    if (!Array.isArray(channels) || !channels.every((c) => typeof c === 'string')) {
      (ack as (a: unknown) => void)({ error: { code: 'VALIDATION_FAILED' } });
      return;
    }
    void socket.join(channels);
    (ack as (a: unknown) => void)({ ok: true });
  });
});

// The adapter psubscribes in its constructor; a PING queued behind it on the same connection is
// answered once Redis has confirmed the subscription.
await sub.ping();
httpServer.listen(port, '127.0.0.1', () => send({ type: 'ready' }));

process.on('SIGTERM', () => {
  void io.close(() => {
    pub.disconnect();
    sub.disconnect();
    process.exit(0);
  });
});
