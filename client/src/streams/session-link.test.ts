import { describe, expect, it } from 'vitest';
import { createSessionLink, type SessionEnd } from './session-link';

/** A link with its pauses recorded instead of run, as the socket would drive it. */
function setup(token: string | null = 't-1') {
  const ends: SessionEnd[] = [];
  const retries: number[] = [];
  const link = createSessionLink({
    connect: () => undefined,
    onEnded: (end) => ends.push(end),
    retryMs: 2000,
    rateLimitedMs: () => 9000,
    schedule: (_run, ms) => retries.push(ms),
  });
  link.setToken(token);
  const handshake = link.auth();
  return { link, ends, retries, handshake };
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
});
