import { describe, expect, it } from 'vitest';
import {
  compareEventIds,
  createUserEventCursor,
  eventIdOfPacket,
  isEventId,
  nextEventId,
} from './user-events';

describe('user-event ids', () => {
  it('orders ids by time then counter, and grows even when the clock steps back', () => {
    expect(['10-1', '9-5', '10-0', '100-0'].sort(compareEventIds)).toEqual([
      '9-5',
      '10-0',
      '10-1',
      '100-0',
    ]);
    expect(nextEventId(null, 5)).toBe('5-0');
    expect(nextEventId('5-0', 5)).toBe('5-1');
    expect(nextEventId('5-1', 3)).toBe('5-2');
    expect(nextEventId('5-2', 6)).toBe('6-0');
    expect([isEventId('1733-0'), isEventId('x-1'), isEventId(7), isEventId('1-')]).toEqual([
      true,
      false,
      false,
      false,
    ]);
  });
});

describe('the id of an encoded event packet', () => {
  it('is read from the meta the packet ends with, and nothing else', () => {
    expect(eventIdOfPacket('2["order",{"id":"9"},{"id":"1733-4"}]')).toBe('1733-4');
    expect(eventIdOfPacket('2["tick",{"id":"BTCUSDT","seq":1}]')).toBeNull();
    expect(eventIdOfPacket('2["order",{"note":"{\\"id\\":\\"1-0\\"}"}]')).toBeNull();
  });
});

describe("the client's cursor", () => {
  it('passes each id once, remembers the newest as since, per token', () => {
    const cursor = createUserEventCursor();
    expect(cursor.since('a')).toBeUndefined();
    expect(
      ['1-0', '3-0', '2-0', '3-0', '1-0', undefined, undefined].map((id) => cursor.accept(id)),
    ).toEqual([true, true, true, false, false, true, true]);
    expect(cursor.since('a')).toBe('3-0');
    expect(cursor.since('b')).toBeUndefined(); // another session: another user's sequence
    expect(cursor.accept('1-0')).toBe(true);
  });

  it('reads the state again only on a signed-in reconnection whose replay was not complete', () => {
    const cursor = createUserEventCursor();
    cursor.since('a');
    // The page's first connection: its state was just loaded.
    expect(cursor.hello({ userId: '1', replay: 'gap', lastEventId: '5-0' })).toBe(false);
    expect(cursor.since('a')).toBe('5-0');
    expect(cursor.hello({ userId: '1', replay: 'complete', lastEventId: '5-0' })).toBe(false);
    expect(cursor.hello({ userId: '1', replay: 'gap', lastEventId: '7-0' })).toBe(true);
    expect(cursor.since('a')).toBe('7-0');
    expect(cursor.hello({ userId: null })).toBe(false); // anonymous: no user state
    expect(cursor.hello({ userId: '1' })).toBe(true); // a gateway that replays nothing
  });
});
