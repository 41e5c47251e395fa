import { describe, expect, expectTypeOf, it } from 'vitest';
import { parseChannel, type ServerToClientEvents, type SessionEndReason } from '@shared/socket';
import { recordingUserEvents, sessionRoom, sessionTokenHash, userRoom } from './user-events';

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
