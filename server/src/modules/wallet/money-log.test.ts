import { Writable } from 'node:stream';
import pino from 'pino';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { openTestDb, type TestDb } from '@tests/support/db';
import { buildTestApi, OPERATOR_TOKEN, type TestApi } from '@tests/support/api';
import { deposit, opsAuth, readyUser, TRADE_PASSWORD } from '@tests/support/wallet';

/**
 * An operator can follow money in the log: one line per state change (deposits, withdrawals,
 * savings moves) and per operator action, with the ids, the request id, and never a secret.
 */
describe('money and operator actions in the log', () => {
  let t: TestDb;
  let api: TestApi;
  const lines: Record<string, unknown>[] = [];
  beforeAll(async () => {
    t = await openTestDb('pglite');
    const log = pino(
      { level: 'info' },
      new Writable({
        write(chunk: Buffer, _enc, done) {
          lines.push(JSON.parse(chunk.toString()) as Record<string, unknown>);
          done();
        },
      }),
    );
    api = await buildTestApi(t.db, { log });
  });
  afterAll(async () => {
    await api.close();
    await t.drop();
  });

  const events = (event: string) => lines.filter((l) => l.event === event);

  it('logs each money state change and operator action once, with ids and no secret', async () => {
    const u = await readyUser(api, 100_000, 'moneylog');
    const rejectedDeposit = await deposit(api, u, 5_000);
    await api.http
      .post(`/api/ops/deposits/${rejectedDeposit}/reject`)
      .set(opsAuth)
      .send({ reason: 'no such transfer' })
      .expect(200);
    const w = await api.http
      .post('/api/withdrawals')
      .set(u.auth)
      .send({ accountId: u.accountId, amount: 10_000, tradePassword: TRADE_PASSWORD })
      .expect(201);
    await api.http.post(`/api/ops/withdrawals/${w.body.id}/approve`).set(opsAuth).expect(200);
    await api.http
      .post('/api/savings/in')
      .set(u.auth)
      .send({ amount: 2_000, mode: 'real' })
      .expect((res) => expect(res.status).toBeLessThan(300));

    expect(events('deposit.requested')).toHaveLength(2);
    expect(events('deposit.approved')).toEqual([
      expect.objectContaining({
        userId: u.user.id,
        amount: 100_000,
        requestId: expect.any(String),
      }),
    ]);
    expect(events('deposit.rejected')).toEqual([
      expect.objectContaining({ depositId: rejectedDeposit, amount: 5_000 }),
    ]);
    expect(events('withdrawal.requested')).toEqual([
      expect.objectContaining({ withdrawalId: w.body.id, amount: 10_000 }),
    ]);
    expect(events('withdrawal.approved')).toEqual([
      expect.objectContaining({ withdrawalId: w.body.id, userId: u.user.id, amount: 10_000 }),
    ]);
    expect(events('savings.in')).toEqual([expect.objectContaining({ amount: 2_000 })]);
    // Every operator call that changes something: the KYC review, three deposit and withdrawal
    // reviews (approve, reject, approve).
    const actions = events('operator.action').map(
      (l) => `${String(l.method)} ${String(l.path)} ${String(l.status)}`,
    );
    expect(actions).toContain(`POST /api/ops/deposits/${rejectedDeposit}/reject 200`);
    expect(actions).toContain(`POST /api/ops/withdrawals/${w.body.id}/approve 200`);
    expect(actions.length).toBeGreaterThanOrEqual(4);

    const all = JSON.stringify(lines);
    for (const secret of [OPERATOR_TOKEN, u.token, u.password, 'no such transfer'])
      expect(all).not.toContain(secret);
  });
});
