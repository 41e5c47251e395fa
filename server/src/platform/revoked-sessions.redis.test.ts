import { randomBytes } from 'node:crypto';
import { Redis } from 'ioredis';
import { afterAll, describe, expect, it } from 'vitest';
import { redisRevokedSessions } from './revoked-sessions';

describe('revoked sessions in Redis (REDIS_URL), written by an api, read by a gateway', () => {
  // Two connections stand for an api and a gateway; a namespace per run keeps parallel files apart.
  const [api, gateway] = [new Redis(process.env.REDIS_URL!), new Redis(process.env.REDIS_URL!)];
  const namespace = `test-${randomBytes(4).toString('hex')}`;
  afterAll(() => [api, gateway].forEach((c) => c.disconnect()));

  it('is seen by another process at once, for the tickets’ lifetime, then pruned', async () => {
    const clock = { now: Date.now() };
    const writer = redisRevokedSessions(api, namespace, 10_000, () => clock.now);
    const reader = redisRevokedSessions(gateway, namespace, 10_000, () => clock.now);
    await writer.record(['h1', 'h2']);
    expect(await reader.isRevoked('h1')).toBe(true);
    expect(await reader.isRevoked('h3')).toBe(false);
    expect(await gateway.pttl(`${namespace}:revoked-sessions`)).toBeGreaterThan(0);

    clock.now += 10_001;
    expect(await reader.isRevoked('h1')).toBe(false); // past every ticket it could stop
    await writer.record(['h4']); // writing prunes what no longer matters
    expect(await gateway.zrange(`${namespace}:revoked-sessions`, 0, -1)).toEqual(['h4']);
  });

  it('rejects when Redis cannot answer, so the gateway refuses rather than admits', async () => {
    const down = new Redis(process.env.REDIS_URL!, {
      lazyConnect: true,
      enableOfflineQueue: false,
    });
    const reader = redisRevokedSessions(down, namespace, 10_000);
    await expect(reader.isRevoked('h1')).rejects.toThrow();
    down.disconnect();
  });
});
