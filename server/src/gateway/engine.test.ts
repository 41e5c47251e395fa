import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { describe, expect, it } from 'vitest';
import WebSocket from 'ws';
import { EngineConn, EngineServer, sendFrame } from './engine';
import { wsTextFrame } from './rooms';

describe('engine: the one use of a `ws` internal', () => {
  it('writes a ready frame straight to the socket (fails here first if `ws` changes its sender)', async () => {
    const httpServer = http.createServer();
    const opened: EngineConn[] = [];
    const engine = new EngineServer<EngineConn>(
      httpServer,
      {
        opened: (conn) => void opened.push(conn),
        message: () => undefined,
        closed: () => undefined,
      },
      {
        path: '/engine.io/',
        pingIntervalMs: 10_000,
        pingTimeoutMs: 10_000,
        maxPayload: 1000,
        Conn: EngineConn,
      },
    );
    await new Promise<void>((r) => httpServer.listen(0, '127.0.0.1', r));
    const { port } = httpServer.address() as AddressInfo;
    const client = new WebSocket(`ws://127.0.0.1:${port}/engine.io/?EIO=4&transport=websocket`);
    const heard: string[] = [];
    client.on('message', (d: Buffer) => heard.push(d.toString()));
    await expect.poll(() => opened.length).toBe(1);
    const conn = opened[0]!;
    expect(
      typeof (conn as unknown as { _sender?: { sendFrame?: unknown } })._sender?.sendFrame,
      '`ws` no longer has WebSocket#_sender.sendFrame: engine.ts sendFrame must change',
    ).toBe('function');
    sendFrame(conn, [wsTextFrame('4hello')]);
    await expect.poll(() => heard).toContain('4hello');
    client.close();
    await engine.close();
    await new Promise<void>((r) => httpServer.close(() => r()));
  });
});
