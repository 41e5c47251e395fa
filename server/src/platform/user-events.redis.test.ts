import { randomBytes } from 'node:crypto';
import { Redis } from 'ioredis';
import pino from 'pino';
import { afterAll, describe, expect, it, vi } from 'vitest';
import { commandRedis } from './redis';
import { redisReplay, redisUserEvents, replayLimits, userEventsKey } from './user-events';

describe('user events in Redis (REDIS_URL): a capped stream per user, then the emitter', () => {
  const redis = new Redis(process.env.REDIS_URL!);
  // No INFO ready check on a subscriber, as the app's own (redis/ioredis#2037): a psubscribe sent
  // while connecting raced it, and the listener then heard nothing (CI, once).
  const listener = new Redis(process.env.REDIS_URL!, { enableReadyCheck: false });
  const ns = `test-${randomBytes(4).toString('hex')}`;
  // Warnings are kept: an event Redis refused is dropped with a warning, and a test that waits
  // for it should say why it never came rather than only that it did not.
  const warnings: string[] = [];
  const log = pino({ level: 'warn' }, { write: (line: string) => void warnings.push(line) });
  const events = redisUserEvents(redis, ns, log);
  const replay = redisReplay(redis, ns);
  afterAll(async () => {
    const keys = await redis.keys(`${ns}:*`);
    if (keys.length) await redis.del(...keys);
    redis.disconnect();
    listener.disconnect();
  });

  it('publishes each event after storing it, and replays after `since` by its id', async () => {
    const published: Buffer[] = [];
    await listener.psubscribe(`${ns}:socket.io*`);
    listener.on('pmessageBuffer', (_p, _c, message: Buffer) => published.push(message));
    for (const n of [1, 2, 3]) events.emit(7, 'balance', { n } as never);
    // Generous: on CI's two busy cores three appends and publishes once took over 5 s.
    await vi.waitFor(
      () =>
        expect({ published: published.length, warnings }).toEqual({ published: 3, warnings: [] }),
      {
        timeout: 30_000,
      },
    );
    const all = await replay('7', undefined);
    expect(all.replay).toBe('gap'); // no `since`: nothing to say it is complete
    const stored = await redis.xrange(userEventsKey(ns, 7), '-', '+');
    expect(stored.map(([id]) => id).at(-1)).toBe(all.lastEventId);
    // Every published packet carries its stream id after the payload.
    stored.forEach(([id], i) => expect(published[i]!.includes(Buffer.from(id))).toBe(true));
    const after = await replay('7', stored[0]![0]);
    expect(after).toEqual({
      events: stored.slice(1).map(([id], i) => ({ id, event: 'balance', payload: { n: i + 2 } })),
      replay: 'complete',
      lastEventId: stored[2]![0],
    });
    expect(await redis.ttl(userEventsKey(ns, 7))).toBeGreaterThan(replayLimits.ttlSeconds - 60);
  });

  it('caps the stream, and a `since` it trimmed away is a gap', async () => {
    const key = userEventsKey(ns, 8);
    const total = replayLimits.perUser * 3;
    for (let n = 0; n < total; n++) events.emit(8, 'balance', { n } as never);
    await vi.waitFor(
      async () => {
        const newest = await redis.xrevrange(key, '+', '-', 'COUNT', 1);
        expect(newest[0]?.[1][3]).toBe(JSON.stringify({ n: total - 1 }));
      },
      { timeout: 10_000, interval: 20 },
    );
    expect(await redis.xlen(key)).toBeLessThan(total);
    const first = (await redis.xrange(key, '-', '+', 'COUNT', 1))[0]![0];
    const [ms, seq] = first.split('-').map(Number);
    const trimmed = seq! > 0 ? `${ms}-${seq! - 1}` : `${ms! - 1}-0`;
    const gap = await replay('8', trimmed);
    expect(gap.replay).toBe('gap');
    expect(gap.events[0]?.id).toBe(first);
    expect((await replay('9', '1-0')).replay).toBe('gap'); // no stream at all
  });

  it('marks a user whose event could not be stored, so a replay across it says gap', async () => {
    const api = commandRedis({ url: process.env.REDIS_URL! }, 'api', log);
    const marked = redisUserEvents(api, ns, log);
    await vi.waitFor(() => expect(api.status).toBe('ready'), { timeout: 5000 });
    marked.emit(11, 'balance', { n: 1 } as never);
    let since: string | null = null;
    await vi.waitFor(async () => {
      since = (await replay('11', undefined)).lastEventId;
      expect(since).not.toBeNull();
    });
    expect((await replay('11', since!)).replay).toBe('complete');
    api.disconnect(true); // dropped, reconnecting: commands fail at once meanwhile
    marked.emit(11, 'balance', { n: 2 } as never);
    await vi.waitFor(async () => expect((await replay('11', since!)).lastEventId).not.toBe(since), {
      timeout: 10_000,
      interval: 50,
    });
    expect(await replay('11', since!)).toMatchObject({ events: [], replay: 'gap' });
    api.disconnect();
  });

  it('drops the event, without throwing, when Redis is away', async () => {
    const gone = new Redis('redis://127.0.0.1:1', {
      lazyConnect: true,
      enableOfflineQueue: false,
      maxRetriesPerRequest: 0,
      retryStrategy: () => null,
    });
    gone.on('error', () => undefined);
    const offline = redisUserEvents(gone, ns, log);
    expect(() => offline.emit(10, 'balance', {} as never)).not.toThrow();
    expect(await redis.exists(userEventsKey(ns, 10))).toBe(0);
    gone.disconnect();
  });
});
