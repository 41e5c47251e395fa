import http from 'node:http';
import { describe, expect, it } from 'vitest';
import { holdsListener } from './processes';

/** The check `startApp` relies on to know that a ready answer on its port is its own app's. */
describe('holdsListener', () => {
  it('tells the process listening on a port from one that is not', async () => {
    const server = http.createServer();
    await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
    const port = (server.address() as { port: number }).port;
    try {
      expect(holdsListener(process.pid, port)).toBe(true);
      // The test runner that started this worker is another process: it does not hold the port.
      expect(holdsListener(process.ppid, port)).toBe(false);
    } finally {
      await new Promise((r) => server.close(r));
    }
    expect(holdsListener(process.pid, port)).toBe(false);
  });
});
