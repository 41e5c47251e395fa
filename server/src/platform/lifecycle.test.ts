import http from 'node:http';
import net from 'node:net';
import { afterEach, describe, expect, it } from 'vitest';
import { startEntry } from '@tests/support/processes';
import { eventually } from '@tests/support/wait';
import { closeServer, httpLimits, listen } from './lifecycle';

const servers: http.Server[] = [];
afterEach(async () => {
  await Promise.all(servers.splice(0).map((s) => closeServer(s)));
});

async function serve(limits = httpLimits) {
  const server = http.createServer((req, res) => {
    req.resume();
    req.on('end', () => res.end('ok'));
  });
  servers.push(server);
  const port = await listen(server, 0, '127.0.0.1', limits);
  return { server, port };
}

/**
 * A client that sends `first`, then `drip` every `everyMs`, never finishing; resolves with what
 * it received and when the server closed the connection (ms after connecting).
 */
function slowClient(port: number, first: string, drip: string, everyMs: number) {
  return new Promise<{ answer: string; closedAfterMs: number }>((resolve) => {
    const started = Date.now();
    let answer = '';
    const socket = net.connect(port, '127.0.0.1', () => socket.write(first));
    const timer = setInterval(() => socket.writable && socket.write(drip), everyMs);
    socket.on('data', (d: Buffer) => (answer += d.toString()));
    socket.on('error', () => undefined);
    socket.on('close', () => {
      clearInterval(timer);
      resolve({ answer, closedAfterMs: Date.now() - started });
    });
  });
}

const short = {
  headersTimeoutMs: 400,
  requestTimeoutMs: 1_000,
  keepAliveTimeoutMs: 300,
  maxRequestsPerSocket: 3,
  checkEveryMs: 50,
};

describe('the HTTP servers of every role', () => {
  it('are listened with the slow-client limits, far below Node’s defaults', async () => {
    const { server } = await serve();
    expect(server.headersTimeout).toBe(10_000);
    expect(server.requestTimeout).toBe(60_000);
    expect(server.keepAliveTimeout).toBe(5_000);
    expect(server.maxRequestsPerSocket).toBe(1000);
  });

  it('cut off a client that sends its headers slowly (408, closed)', async () => {
    const { port } = await serve(short);
    const { answer, closedAfterMs } = await slowClient(
      port,
      'GET / HTTP/1.1\r\nHost: x\r\n',
      'X-Slow: 1\r\n',
      100,
    );
    expect(answer).toMatch(/^HTTP\/1\.1 408 /);
    expect(closedAfterMs).toBeGreaterThanOrEqual(350);
    expect(closedAfterMs).toBeLessThan(1_000);
  });

  it('cut off a client that sends its body slowly once the request timeout passes', async () => {
    const { port } = await serve(short);
    const { answer, closedAfterMs } = await slowClient(
      port,
      'POST / HTTP/1.1\r\nHost: x\r\nContent-Length: 100000\r\n\r\n',
      'a',
      50,
    );
    expect(answer).toMatch(/^HTTP\/1\.1 408 /);
    expect(closedAfterMs).toBeGreaterThanOrEqual(950);
    expect(closedAfterMs).toBeLessThan(2_000);
  });

  it('close an idle keep-alive connection, and a connection after its last allowed request', async () => {
    const { port } = await serve(short);
    const idle = await slowClient(port, 'GET / HTTP/1.1\r\nHost: x\r\n\r\n', '', 10_000);
    expect(idle.answer).toMatch(/^HTTP\/1\.1 200 /);
    // Node gives an idle connection a second more than keepAliveTimeout before it closes it.
    expect(idle.closedAfterMs).toBeLessThan(short.keepAliveTimeoutMs + 1_000 + 500);
    const many = await slowClient(port, 'GET / HTTP/1.1\r\nHost: x\r\n\r\n'.repeat(4), '', 10_000);
    const answers = many.answer.match(/HTTP\/1\.1 \d+/g);
    // Three served, the third with Connection: close; one sent after it anyway gets 503.
    expect(answers).toEqual(['HTTP/1.1 200', 'HTTP/1.1 200', 'HTTP/1.1 200', 'HTTP/1.1 503']);
    expect(many.answer).toMatch(/Connection: close/i);
  });
});

describe('a stop signal (installShutdown with a drain window)', () => {
  it('fails readiness at once, serves in-flight and new requests through the window, then exits 0', async () => {
    const proc = startEntry('tests/support/shutdown.fixture.ts', {
      DRAIN_MS: '3000',
      SLOW_MS: '1000',
    });
    try {
      await eventually(() => /listening \d+/.test(proc.output()), 30_000, 'the process to listen');
      const base = `http://127.0.0.1:${/listening (\d+)/.exec(proc.output())![1]}`;
      expect((await fetch(`${base}/readyz`)).status).toBe(200);

      const inFlight = fetch(`${base}/slow`);
      proc.child.kill('SIGTERM');
      await eventually(() => proc.output().includes('shutting down'), 10_000, 'the stop signal');
      const ready = await fetch(`${base}/readyz`);
      expect(ready.status).toBe(503);
      expect(await ready.json()).toMatchObject({ ok: false, shuttingDown: true });
      // A new request during the window is still served (the balancer has not noticed yet).
      expect((await fetch(`${base}/healthz`)).status).toBe(200);
      expect((await inFlight).status).toBe(200);

      expect(await proc.exited).toBe(0);
      await expect(fetch(`${base}/healthz`)).rejects.toThrow(); // closed after the window
    } finally {
      await proc.stop('SIGKILL');
    }
  }, 60_000);
});
