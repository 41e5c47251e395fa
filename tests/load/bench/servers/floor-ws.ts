import { createServer } from 'node:http';
import type WebSocket from 'ws';
import { WebSocketServer } from 'ws';
import { Redis } from 'ioredis';
import type { BusMessage } from '@shared/bus';
import { toMarketSnapshot } from '@server/gateway/snapshot';
import { installProbe, send } from '../ipc';
import { prebuiltTextFrame, sendPrebuilt } from '../frame';

/**
 * (b) The floor: a raw `ws` server. It hears the same bus messages as our gateway (Redis pub/sub,
 * `<namespace>:tick` and `<namespace>:market`), encodes each once as the very text Socket.IO would
 * send, frames it once, and writes that frame to every subscriber of the room. Nothing else runs per
 * delivery. To serve the same light clients it answers the Engine.IO/Socket.IO handshake and the
 * `subscribe` event with fixed strings (connection setup only, outside the measured window).
 */
installProbe();
const port = Number(process.env.BENCH_PORT);
const redisUrl = process.env.BENCH_REDIS_URL!;
const namespace = process.env.BENCH_KEY!;

const rooms = new Map<string, Set<WebSocket>>();
const OPEN =
  '0{"sid":"floor","upgrades":[],"pingInterval":25000,"pingTimeout":20000,"maxPayload":16384}';
const SUBSCRIBE = /^42(\d*)\["subscribe",(\[.*\])\]$/;

const httpServer = createServer();
const wss = new WebSocketServer({
  server: httpServer,
  perMessageDeflate: false,
  clientTracking: false,
});
wss.on('connection', (ws) => {
  const joined: string[] = [];
  ws.send(OPEN);
  ws.on('message', (data: Buffer) => {
    const text = data.toString();
    if (text === '40' || text.startsWith('40{')) {
      ws.send('40{"sid":"floor"}');
      return;
    }
    const m = SUBSCRIBE.exec(text);
    if (!m) return;
    for (const room of JSON.parse(m[2]!) as string[]) {
      let set = rooms.get(room);
      if (!set) rooms.set(room, (set = new Set()));
      set.add(ws);
      joined.push(room);
    }
    ws.send(`43${m[1]}[{"ok":true}]`);
  });
  ws.on('close', () => {
    for (const room of joined) rooms.get(room)?.delete(ws);
  });
});

const fanOut = (room: string, event: string, payload: unknown) => {
  const set = rooms.get(room);
  if (!set?.size) return;
  const frame = prebuiltTextFrame(`42${JSON.stringify([event, payload])}`);
  for (const ws of set) sendPrebuilt(ws, frame);
};

// No INFO ready check on a subscriber (redis/ioredis#2037), as the app's own bus.
const sub = new Redis(redisUrl, { enableReadyCheck: false });
sub.on('message', (_channel: string, payload: string) => {
  const m = JSON.parse(payload) as BusMessage;
  if (m.type === 'tick') fanOut(`ticks:${m.tick.id}`, 'tick', m.tick);
  else if (m.type === 'market') fanOut('market', 'market', toMarketSnapshot(m.market));
});
await sub.subscribe(`${namespace}:tick`, `${namespace}:market`);
httpServer.listen(port, '127.0.0.1', () => send({ type: 'ready' }));

process.on('SIGTERM', () => {
  sub.disconnect();
  wss.close();
  httpServer.close();
  httpServer.closeAllConnections();
  process.exit(0);
});
