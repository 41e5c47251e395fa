import { describe, expect, expectTypeOf, it } from 'vitest';
import { parseChannel, type ServerToClientEvents, type SessionEndReason } from '@shared/socket';
import type { AccountSummary } from '@shared/wallet/model';
import { compareEventIds } from '@shared/user-events';
import {
  lateUserEvents,
  recordingUserEvents,
  sessionRoom,
  sessionTokenHash,
  replayFrom,
  userEventRing,
  userRoom,
} from './user-events';

describe('user events', () => {
  it('names a session room by the SHA-256 of its token, which no client can subscribe to', () => {
    expect(sessionRoom(sessionTokenHash('abc'))).toBe(
      'session:ba7816bf8f01cfea414140de5dae2223b00361a396177a9cb410ff61f20015ad',
    );
    expect(userRoom(7)).toBe('user:7');
    for (const room of [sessionRoom('00ff'), userRoom(7)]) expect(parseChannel(room)).toBeNull();
  });

  it('types the session end once: its reasons, and only endSessions sends it', () => {
    expectTypeOf<Parameters<ServerToClientEvents['sessionEnded']>[0]>().toEqualTypeOf<{
      reason: SessionEndReason;
    }>();
    const events = recordingUserEvents();
    events.endSessions(['h1', 'h2'], 'password_changed');
    events.endSessions([], 'logout'); // nothing to end, nothing sent
    // @ts-expect-error not a reason the client knows
    events.endSessions(['h1'], 'expired');
    // @ts-expect-error not a user event: a session end goes to the session's sockets only
    events.emit(1, 'sessionEnded', { reason: 'logout' });
    expect(events.ended).toEqual([
      { tokenHashes: ['h1', 'h2'], reason: 'password_changed' },
      { tokenHashes: ['h1'], reason: 'expired' },
    ]);
  });
});

describe('replay buffer in memory (embedded)', () => {
  const sent = (n: number) => ({ event: 'balance' as const, payload: { n } });

  it('gives each user growing ids, and replays after `since` completely while it is held', async () => {
    const ring = userEventRing({ users: 10, perUser: 5 });
    const ids = [1, 2, 3].map((n) => ring.append(7, 'balance', { n }));
    ring.append(8, 'message', { id: 'm', title: 't' }); // another user's: never in 7's replay
    expect([...ids].sort(compareEventIds)).toEqual(ids);
    expect(new Set(ids).size).toBe(3);
    expect(await ring.read('7', ids[0])).toEqual({
      events: [2, 3].map((n, i) => ({ id: ids[i + 1], ...sent(n) })),
      replay: 'complete',
      lastEventId: ids[2],
    });
    expect(await ring.read('7', ids[2])).toEqual({
      events: [],
      replay: 'complete',
      lastEventId: ids[2],
    });
  });

  it('says gap when `since` is trimmed, unknown, absent or its user was dropped', async () => {
    const ring = userEventRing({ users: 2, perUser: 3 });
    const ids = [1, 2, 3, 4, 5].map((n) => ring.append(7, 'balance', { n }));
    const trimmed = await ring.read('7', ids[0]);
    expect(trimmed.replay).toBe('gap');
    expect(trimmed.events.map((e) => e.id)).toEqual(ids.slice(2)); // what it still holds
    expect((await ring.read('7', undefined)).replay).toBe('gap');
    expect((await ring.read('7', undefined)).lastEventId).toBe(ids[4]);
    expect((await ring.read('7', '1-0')).replay).toBe('gap');
    // Two more recent users: 7's buffer goes, its replay is a gap with nothing held.
    ring.append(8, 'balance', {});
    ring.append(9, 'balance', {});
    expect(await ring.read('7', ids[4])).toEqual({ events: [], replay: 'gap', lastEventId: null });
  });

  it('is complete across a `since` the buffer no longer holds but reaches back beyond', () => {
    // An event heard live from a Redis master that failed over before replicating it.
    const held = [
      { id: '10-0', ...sent(1) },
      { id: '30-0', ...sent(3) },
    ];
    expect(replayFrom(held, '20-0')).toEqual({
      events: [{ id: '30-0', ...sent(3) }],
      replay: 'complete',
      lastEventId: '30-0',
    });
    // Not when what it reaches back to is newer, nor with a LOST mark after it.
    expect(replayFrom(held, '5-0').replay).toBe('gap');
    const lost = [...held, { id: '40-0', event: 'lost' as never, payload: null }];
    expect(replayFrom(lost, '20-0')).toMatchObject({ replay: 'gap', events: [{ id: '30-0' }] });
  });

  it('sends each event to the user room with its id, the id the replay knows it by', async () => {
    const events = lateUserEvents(userEventRing({ users: 10, perUser: 10 }));
    const out: { room: string; args: unknown[] }[] = [];
    events.bind({
      to: (room) => ({ emit: (_event, ...args) => out.push({ room: String(room), args }) }),
      in: () => ({ disconnectSockets: () => undefined }),
    });
    events.emit(7, 'balance', summary);
    const { lastEventId } = await events.replay('7', undefined);
    expect(out).toEqual([{ room: 'user:7', args: [summary, { id: lastEventId }] }]);
  });
});

const summary = {} as AccountSummary;
