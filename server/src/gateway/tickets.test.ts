import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { io as connect, type Socket } from 'socket.io-client';
import pino from 'pino';
import type {
  ClientToServerEvents,
  Hello,
  ServerToClientEvents,
  SocketTicket,
} from '@shared/socket';
import { createMemoryBus, createMemoryHub } from '@infra/bus/memory';
import { oneAddressLimits } from '@tests/support/socket-limits';
import { createMetrics } from '../platform/metrics';
import { memoryRevokedSessions } from '../platform/revoked-sessions';
import { sessionTokenHash } from '../platform/user-events';
import { createGateway, type Gateway } from './gateway';
import { createTicketSigner } from './socket-ticket';

type Client = Socket<ServerToClientEvents, ClientToServerEvents>;

/** Socket tickets at the gateway: issued in hello, renewed, and admitting without the api. */
describe('gateway socket tickets', () => {
  const revoked = memoryRevokedSessions(600_000);
  const metrics = createMetrics('gateway');
  const admittedBy = async (by: string) =>
    (await metrics.admissions.get()).values.find((v) => v.labels.by === by)?.value ?? 0;
  let revocationsReadable = true;
  let apiChecks: string[] = [];
  let gateway: Gateway;
  let url = '';
  const clients: Client[] = [];

  beforeAll(async () => {
    const server = http.createServer();
    gateway = await createGateway(server, {
      bus: createMemoryBus(createMemoryHub()),
      log: pino({ level: 'silent' }),
      productIds: new Set(['BTCUSDT']),
      authenticate: (token) => {
        apiChecks.push(token);
        return Promise.resolve(token.startsWith('good') ? `user-${token}` : null);
      },
      tickets: {
        // Renewed at half their life: a 2 s ticket is renewed within about a second.
        signer: createTicketSigner('s'.repeat(32), 2_000),
        revoked: {
          isRevoked: (hash) =>
            revocationsReadable ? revoked.isRevoked(hash) : Promise.reject(new Error('redis away')),
        },
      },
      connectionLimits: oneAddressLimits,
      metrics,
    });
    await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
    url = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  });
  afterAll(async () => {
    for (const c of clients) c.disconnect();
    await gateway.close();
  });
  beforeEach(() => {
    apiChecks = [];
    revocationsReadable = true;
  });

  /** One connection: its hello, or the refusal's code. */
  const attempt = (auth: Record<string, unknown>) =>
    new Promise<{ hello?: Hello; refused?: string; client: Client }>((resolve) => {
      const c: Client = connect(url, {
        transports: ['websocket'],
        forceNew: true,
        reconnection: false,
        auth,
      });
      clients.push(c);
      c.once('hello', (hello) => resolve({ hello, client: c }));
      c.once('connect_error', (err) => resolve({ refused: err.message, client: c }));
    });
  const ticketFor = async (token: string): Promise<SocketTicket> => {
    const { hello } = await attempt({ token });
    expect(hello?.ticket).toBeDefined();
    return hello!.ticket!;
  };

  it('gives a signed-in socket a ticket in its hello, and none to an anonymous one', async () => {
    const { hello } = await attempt({ token: 'good-1' });
    expect(hello).toMatchObject({ userId: 'user-good-1', ticket: { value: expect.any(String) } });
    expect(apiChecks).toEqual(['good-1', 'good-1']); // the token path: checked twice
    expect((await attempt({})).hello).not.toHaveProperty('ticket');
  });

  it('admits a socket by its ticket without asking the api, and gives it a fresh one', async () => {
    const ticket = await ticketFor('good-2');
    apiChecks = [];
    const [byTicket, byToken] = [await admittedBy('ticket'), await admittedBy('token')];
    const { hello } = await attempt({ token: 'good-2', ticket: ticket.value });
    expect(hello?.userId).toBe('user-good-2');
    expect(hello?.ticket).toBeDefined();
    expect(apiChecks).toEqual([]);
    expect(await admittedBy('ticket')).toBe(byTicket + 1);
    expect(await admittedBy('token')).toBe(byToken);
  });

  it('checks the token when the ticket is of another token, or forged', async () => {
    const ticket = await ticketFor('good-3');
    apiChecks = [];
    const other = await attempt({ token: 'good-4', ticket: ticket.value });
    expect(other.hello?.userId).toBe('user-good-4');
    const forged = await attempt({ token: 'good-3', ticket: `${ticket.value}x` });
    expect(forged.hello?.userId).toBe('user-good-3');
    expect(apiChecks).toEqual(['good-4', 'good-4', 'good-3', 'good-3']);
  });

  it("refuses a revoked session's ticket UNAUTHENTICATED, without asking the api", async () => {
    const ticket = await ticketFor('good-5');
    await revoked.record([sessionTokenHash('good-5')]);
    apiChecks = [];
    expect((await attempt({ token: 'good-5', ticket: ticket.value })).refused).toBe(
      'UNAUTHENTICATED',
    );
    expect(apiChecks).toEqual([]);
  });

  it('refuses a ticket UNAVAILABLE when the revoked sessions cannot be read, never admitting it unchecked', async () => {
    const ticket = await ticketFor('good-6');
    revocationsReadable = false;
    expect((await attempt({ token: 'good-6', ticket: ticket.value })).refused).toBe('UNAVAILABLE');
  });

  it('renews the ticket of a connected socket before it expires', async () => {
    const { hello, client } = await attempt({ token: 'good-7' });
    const fresh = await new Promise<SocketTicket>((resolve) => client.once('ticket', resolve));
    expect(fresh.expiresAt).toBeGreaterThan(hello!.ticket!.expiresAt);
    apiChecks = [];
    expect((await attempt({ token: 'good-7', ticket: fresh.value })).hello?.userId).toBe(
      'user-good-7',
    );
    expect(apiChecks).toEqual([]);
  });
});
