import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startPrivateRedis, type PrivateRedis } from '@tests/support/redis-server';
import { eventually } from '@tests/support/wait';
import { createRedisBus } from './redis';

describe('Redis bus across a Redis restart (private redis-server)', () => {
  let redis: PrivateRedis;
  beforeAll(async () => {
    redis = await startPrivateRedis();
  });
  afterAll(() => redis.kill());

  it('messages flow again after Redis is killed and restarted, without restarting the subscriber', async () => {
    const publisher = createRedisBus({ url: redis.url });
    const subscriber = createRedisBus({ url: redis.url });
    try {
      const seqs: number[] = [];
      await subscriber.subscribe('tick', (m) => seqs.push(m.tick.seq));
      await eventually(() => publisher.ready() && subscriber.ready(), 5000, 'buses ready');
      const send = (seq: number) =>
        publisher.publish({ type: 'tick', tick: { id: 'X', seq, ts: seq, price: '1' } });
      await send(1);
      await eventually(() => seqs.includes(1));

      await redis.kill('SIGKILL');
      await eventually(() => !subscriber.ready(), 5000, 'subscriber to notice');
      await redis.start();
      await eventually(() => publisher.ready() && subscriber.ready(), 10_000, 'reconnect');

      // Keep publishing until one arrives: the subscriber re-subscribes on its own.
      let seq = 100;
      await eventually(
        () => {
          void send(++seq);
          return seqs.some((s) => s >= 100);
        },
        10_000,
        'messages after restart',
      );
      expect(seqs[0]).toBe(1);
    } finally {
      await Promise.all([publisher.close(), subscriber.close()]);
    }
  });
});
