import { describe, expect, it } from 'vitest';
import { createSessionLink, type SessionEnd } from './session-link';

/**
 * A link with its pauses recorded instead of run, as the socket would drive it. Its random source
 * answers `draws` in turn (0.6 when none: a 2 000 ms retry), its clock reads `clock.now`.
 */
function setup(token: string | null = 't-1', draws: number[] = []) {
  const ends: SessionEnd[] = [];
  const retries: number[] = [];
  const clock = { now: 1_000_000 };
  const link = createSessionLink({
    connect: () => undefined,
    onEnded: (end) => ends.push(end),
    retryMs: { min: 500, max: 3000 },
    rateLimitedMs: () => 9000,
    schedule: (_run, ms) => retries.push(ms),
    random: () => draws.shift() ?? 0.6,
    now: () => clock.now,
  });
  link.setToken(token);
  const handshake = link.auth();
  return { link, ends, retries, handshake, clock };
}

describe('session link', () => {
  it('sends the token, and connects again without it after the server ends the session', () => {
    const { link, ends, retries, handshake } = setup();
    expect(handshake).toEqual({ token: 't-1' });
    link.sessionEnded('password_changed');
    expect(ends).toEqual([{ token: 't-1', reason: 'password_changed' }]);
    link.disconnected('io server disconnect');
    expect(retries).toEqual([0]); // at once: market data goes on
    expect(link.auth()).toEqual({});
  });

  it('ends the session when the server refuses its token (UNAUTHENTICATED)', () => {
    const { link, ends, retries } = setup();
    link.connectError('UNAUTHENTICATED', false);
    expect(ends).toEqual([{ token: 't-1', reason: 'ended' }]);
    expect(retries).toEqual([2000]);
    expect(link.auth()).toEqual({});
  });

  it('keeps the session through a lost network or a restarting server', () => {
    const { link, ends, retries } = setup();
    link.disconnected('transport close');
    link.disconnected('ping timeout');
    link.connectError('websocket error', true); // socket.io retries these by itself
    link.connectError('xhr poll error', true);
    expect(ends).toEqual([]);
    expect(retries).toEqual([]);
    expect(link.auth()).toEqual({ token: 't-1' });
  });

  it('retries with the token when it could not be checked (UNAVAILABLE), or after a kick with no notice', () => {
    const { link, ends, retries } = setup();
    link.connectError('UNAVAILABLE', false);
    link.disconnected('io server disconnect'); // the answer to the next attempt will tell
    expect(ends).toEqual([]);
    expect(retries).toEqual([2000, 2000]);
    expect(link.auth()).toEqual({ token: 't-1' });
  });

  it('waits longer after RATE_LIMITED, still signed in', () => {
    const { link, ends, retries } = setup();
    link.connectError('RATE_LIMITED', false);
    expect(ends).toEqual([]);
    expect(retries).toEqual([9000]);
    expect(link.auth()).toEqual({ token: 't-1' });
  });

  it('has no session to end for an anonymous socket', () => {
    const { link, ends } = setup(null);
    link.connectError('UNAUTHENTICATED', false);
    link.sessionEnded('logout');
    expect(ends).toEqual([]);
  });

  it('reports the ended token, and keeps a newer one set meanwhile', () => {
    const { link, ends } = setup('t-old');
    link.setToken('t-new'); // a login in another tab; the reconnect has not happened yet
    link.connectError('UNAUTHENTICATED', false);
    expect(ends).toEqual([{ token: 't-old', reason: 'ended' }]);
    expect(link.auth()).toEqual({ token: 't-new' });
  });

  it('spreads the retry after a server kick over 0.5-3 s, from its random source', () => {
    const { link, retries } = setup('t-1', [0, 0.5, 0.999]);
    link.disconnected('io server disconnect');
    link.disconnected('io server disconnect');
    link.connectError('UNAVAILABLE', false);
    expect(retries).toEqual([500, 1750, 3000 - 2500 * 0.001]);
  });
});

describe('socket tickets', () => {
  const ticket = (value: string, expiresAt: number) => ({ value, expiresAt });

  it('sends the last ticket with its token until it expires', () => {
    const { link, clock } = setup();
    link.ticketReceived(ticket('tk-1', clock.now + 600_000));
    expect(link.auth()).toEqual({ token: 't-1', ticket: 'tk-1' });
    link.ticketReceived(ticket('tk-2', clock.now + 900_000)); // renewed while connected
    expect(link.auth()).toEqual({ token: 't-1', ticket: 'tk-2' });
    clock.now += 900_000;
    expect(link.auth()).toEqual({ token: 't-1' }); // expired: the token alone
  });

  it('drops the ticket for a new token, and never gives one to another token', () => {
    const { link, clock } = setup();
    link.ticketReceived(ticket('tk-1', clock.now + 600_000));
    link.setToken('t-2');
    expect(link.auth()).toEqual({ token: 't-2' });
    link.setToken('t-3'); // the ticket of t-2's connection arrives after the switch
    link.ticketReceived(ticket('tk-of-t-2', clock.now + 600_000));
    expect(link.auth()).toEqual({ token: 't-3' });
  });

  it('drops the ticket when the session ends, or when the gateway could not check it', () => {
    const { link, clock } = setup();
    link.ticketReceived(ticket('tk-1', clock.now + 600_000));
    link.connectError('UNAVAILABLE', false);
    expect(link.auth()).toEqual({ token: 't-1' });
    link.ticketReceived(ticket('tk-2', clock.now + 600_000));
    link.sessionEnded('logout');
    expect(link.auth()).toEqual({});
  });

  it('keeps no ticket for an anonymous socket', () => {
    const { link, clock } = setup(null);
    link.ticketReceived(ticket('tk-1', clock.now + 600_000));
    link.setToken('t-1');
    expect(link.auth()).toEqual({ token: 't-1' });
  });
});

describe('replay cursor in the handshake', () => {
  it('sends the last user event seen with the token as since, and never without a token', () => {
    const seen: Record<string, string> = { 't-2': '17-3' };
    const link = createSessionLink({
      connect: () => undefined,
      onEnded: () => undefined,
      retryMs: { min: 500, max: 3000 },
      rateLimitedMs: () => 9000,
      since: (token) => seen[token],
    });
    expect(link.auth()).toEqual({});
    link.setToken('t-1');
    expect(link.auth()).toEqual({ token: 't-1' });
    link.setToken('t-2');
    expect(link.auth()).toEqual({ token: 't-2', since: '17-3' });
  });
});
