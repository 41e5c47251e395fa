import { randomBytes } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { io as connect, type Socket } from 'socket.io-client';
import type { Tick } from '@shared/market/model';
import type { ClientToServerEvents, ServerToClientEvents } from '@shared/socket';
import { eventually } from '@tests/support/wait';
import { openTestDb, urlWithSchema, type TestDb } from '@tests/support/db';
import { startEntry, waitForHttp, type RunningProcess } from '@tests/support/processes';
import { freePort } from '@tests/support/redis-server';

const LEASE_MS = 2000;

/**
 * Two simulators on one database: one leads, the other stands by. Killed with SIGKILL (no
 * release), the leader is replaced by the standby within 5 s; the tape keeps one tick per
 * sequence number with none missing, and a gateway's client goes on receiving ticks.
 */
describe('a standby simulator (PostgreSQL + Redis)', { timeout: 180_000 }, () => {
  let t: TestDb;
  const sims = new Map<number, RunningProcess>();
  let gateway: RunningProcess;
  let gatewayUrl = '';

  beforeAll(async () => {
    t = await openTestDb('postgres');
    const env = {
      DATABASE_URL: urlWithSchema(t.url!, t.schema!),
      REDIS_URL: process.env.REDIS_URL!,
      REDIS_NAMESPACE: `standby-${randomBytes(3).toString('hex')}`,
      SIM_BACKFILL_HOURS: '0',
      SIM_TICKS_PER_SECOND: '5',
      SIM_LEASE_MS: String(LEASE_MS),
      LOG_LEVEL: 'info',
    };
    const [a, b, g] = await Promise.all([freePort(), freePort(), freePort()]);
    // The first leads once it answers; the second then can only stand by.
    const first = startEntry('server/src/main/sim.ts', { ...env, PORT: String(a) });
    await waitForHttp(`http://127.0.0.1:${a}/readyz`, 200, 60_000);
    await eventually(() => /simulator leads/.test(first.output()), 30_000, 'a leader');
    const second = startEntry('server/src/main/sim.ts', { ...env, PORT: String(b) });
    await waitForHttp(`http://127.0.0.1:${b}/readyz`, 200, 60_000);
    sims.set(first.child.pid!, first);
    sims.set(second.child.pid!, second);
    gateway = startEntry('server/src/main/gateway.ts', { ...env, PORT: String(g) });
    gatewayUrl = `http://127.0.0.1:${g}`;
    await waitForHttp(`${gatewayUrl}/readyz`, 200, 60_000);
  }, 180_000);

  afterAll(async () => {
    await Promise.all([gateway, ...sims.values()].map((p) => p?.stop('SIGTERM')));
    await t?.drop();
  });

  const lease = async () =>
    (
      await t.db.query<{ holder: string; epoch: string }>(
        'SELECT holder, epoch FROM sim_lease WHERE id = 1',
      )
    ).rows[0]!;
  const pidOf = (holder: string) => Number(holder.split(':')[1]);

  it('hands over within 5 s of the leader’s death, without duplicate or missing ticks', async () => {
    const c: Socket<ServerToClientEvents, ClientToServerEvents> = connect(gatewayUrl, {
      transports: ['websocket'],
      reconnection: false,
    });
    try {
      const ticks: Tick[] = [];
      c.on('tick', (tk) => ticks.push(tk));
      expect(await new Promise((r) => c.emit('subscribe', ['ticks:BTCUSDT'], r))).toEqual({
        ok: true,
      });
      await eventually(() => ticks.length >= 10, 20_000, 'ticks from the first leader');

      const before = await lease();
      const leader = sims.get(pidOf(before.holder))!;
      expect(leader).toBeDefined();
      const standby = [...sims.values()].find((p) => p !== leader)!;
      expect(standby.output()).not.toMatch(/simulator leads/);

      const killedAt = Date.now();
      leader.child.kill('SIGKILL');
      await leader.exited;
      await eventually(() => /simulator leads/.test(standby.output()), 30_000, 'the standby leads');
      const after = await lease();
      expect(pidOf(after.holder)).toBe(standby.child.pid);
      expect(Number(after.epoch)).toBe(Number(before.epoch) + 1);

      // The client goes on receiving ticks, now from the new leader.
      await eventually(() => ticks.some((tk) => tk.ts > killedAt), 30_000, 'ticks after the kill');
      const firstNew = ticks.find((tk) => tk.ts > killedAt)!;
      console.log(`standby took over: first new tick ${firstNew.ts - killedAt} ms after the kill`);
      expect(firstNew.ts - killedAt).toBeLessThanOrEqual(5000);

      // The tape: one tick per sequence number, none missing, and no pause longer than the outage.
      const tape = () =>
        t.db.query<{ seq: string; ts: string }>(
          "SELECT seq, ts FROM ticks WHERE product_id = 'BTCUSDT' ORDER BY seq",
        );
      let { rows } = await tape();
      for (let i = 0; i < 100 && Number(rows.at(-1)!.ts) < firstNew.ts; i++) {
        await new Promise((r) => setTimeout(r, 100)); // until the new leader's tape write lands
        ({ rows } = await tape());
      }
      const seqs = rows.map((r) => Number(r.seq));
      expect(new Set(seqs).size).toBe(seqs.length);
      expect(seqs).toEqual(seqs.map((_, i) => seqs[0]! + i));
      const times = rows.map((r) => Number(r.ts));
      const pauses = times.slice(1).map((ts, i) => ts - times[i]!);
      expect(Math.max(...pauses)).toBeLessThanOrEqual(5000);
      expect(times.at(-1)!).toBeGreaterThan(killedAt);
    } finally {
      c.disconnect();
    }
  });
});
