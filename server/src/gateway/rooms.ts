import type { Adapter } from 'socket.io-adapter';
import type { MarketSnapshot, Tick } from '@shared/market/model';
import type { ServerToClientEvents } from '@shared/socket';
import type { Metrics } from '../platform/metrics';
import type { createBacklog } from './backlog';
import { encodePacket, type Conn, type SioPacket, type SocketServer } from './socket-server';

/**
 * What the gateway sends to rooms: market messages framed once for all of a room's sockets, and
 * the Socket.IO-like broadcasts the rest of the app uses for user events.
 */

type Emit = <E extends keyof ServerToClientEvents>(
  event: E,
  ...args: Parameters<ServerToClientEvents[E]>
) => void;

/** `io.to(rooms)`: a broadcast to rooms through the adapter (so through Redis when attached). */
export interface RoomBroadcast {
  to(room: string | string[]): RoomBroadcast;
  emit: Emit;
  disconnectSockets(close?: boolean): void;
}

/**
 * The part of Socket.IO's `Server` the rest of the app uses: rooms for user events, the adapter,
 * and the counts the tests read.
 */
export interface GatewayServer {
  to(room: string | string[]): RoomBroadcast;
  in(room: string | string[]): RoomBroadcast;
  /** This gateway's sockets only, never through the adapter. */
  local: { emit: Emit };
  of(name: '/'): { adapter: Adapter; sockets: ReadonlyMap<string, Conn> };
  engine: { readonly clientsCount: number };
  /** Replaces the in-memory adapter, e.g. with `createAdapter(pub, sub)` of @socket.io/redis-adapter. */
  adapter(factory: (nsp: never) => Adapter): void;
}

/**
 * A server-to-client WebSocket text frame (RFC 6455 §5.2: FIN, opcode 1, unmasked), header and
 * payload in one Buffer, so writing it to a socket is one write.
 */
export function wsTextFrame(text: string): Buffer {
  const n = Buffer.byteLength(text);
  const head = n < 126 ? 2 : n < 65_536 ? 4 : 10;
  const frame = Buffer.allocUnsafe(head + n);
  frame[0] = 0x81;
  if (n < 126) frame[1] = n;
  else if (n < 65_536) {
    frame[1] = 126;
    frame.writeUInt16BE(n, 2);
  } else {
    frame[1] = 127;
    frame.writeUInt32BE(Math.floor(n / 2 ** 32), 2);
    frame.writeUInt32BE(n >>> 0, 6);
  }
  frame.write(text, head);
  return frame;
}

/**
 * One market message to every socket of `room`: encoded and framed once (the very bytes a
 * Socket.IO emit would send), then handed to each socket's backlog policy.
 */
export function marketBroadcaster(
  server: SocketServer,
  backlog: Pick<ReturnType<typeof createBacklog>, 'deliver'>,
  metrics: Pick<Metrics, 'broadcasts' | 'deliveries'> | undefined,
) {
  return (room: string, event: 'tick' | 'market', payload: Tick | MarketSnapshot) => {
    metrics?.broadcasts.inc({ event });
    // Read the adapter at each call: attaching the Redis adapter replaces it.
    const ids = server.adapter.rooms.get(room);
    if (!ids?.size) return;
    const frame = wsTextFrame(`4${encodePacket({ type: 2, nsp: '/', data: [event, payload] })}`);
    const held = { channel: room, event, payload, frame };
    for (const id of ids) {
      const conn = server.sockets.get(id);
      if (conn) backlog.deliver(conn, held);
    }
    metrics?.deliveries.inc({ event }, ids.size);
  };
}

/** A broadcast to `to` through the server's adapter (so through Redis when attached). */
function roomBroadcast(
  server: SocketServer,
  to: ReadonlySet<string>,
): RoomBroadcast & { emit: (event: string, ...args: unknown[]) => void } {
  return {
    to: (room) =>
      roomBroadcast(server, new Set([...to, ...(typeof room === 'string' ? [room] : room)])),
    emit: (event: string, ...args: unknown[]) => {
      const packet: SioPacket = { type: 2, nsp: '/', data: [event, ...args] };
      server.adapter.broadcast(packet, { rooms: new Set(to), except: new Set() });
    },
    disconnectSockets: (close = false) =>
      server.adapter.disconnectSockets({ rooms: new Set(to), except: new Set() }, close),
  };
}

/** The part of Socket.IO's `Server` the rest of the app uses, over the gateway's own server. */
export function gatewayServer(server: SocketServer): GatewayServer {
  return {
    to: (room) => roomBroadcast(server, new Set(typeof room === 'string' ? [room] : room)),
    in: (room) => roomBroadcast(server, new Set(typeof room === 'string' ? [room] : room)),
    local: {
      emit: (event, ...args) => {
        for (const conn of server.sockets.values()) conn.sendEvent(event, ...args);
      },
    },
    of: () => ({ adapter: server.adapter, sockets: server.sockets }),
    engine: {
      get clientsCount() {
        return server.clientsCount;
      },
    },
    adapter(factory) {
      const adapter = factory(server.nsp as never);
      void adapter.init();
      server.setAdapter(adapter);
    },
  };
}
