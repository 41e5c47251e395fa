import { generate } from 'otplib';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { OperatorRole } from '@server/platform/http/operator-gate';
import { dbDrivers, openTestDb, type TestDb } from '@tests/support/db';
import { buildTestApi, newTestAddress, registerUser, type TestApi } from '@tests/support/api';
import {
  bindBank,
  deposit,
  fund,
  images,
  itemsOf,
  opsAuth,
  postKyc,
  TRADE_PASSWORD,
} from '@tests/support/wallet';

interface Created {
  operator: { id: string; name: string; role: OperatorRole };
  password: string;
  totpSecret: string;
}
interface AccessLine {
  id: string;
  at: number;
  operator: string;
  operatorId: string | null;
  role: string;
  kind: 'profile' | 'review_context' | 'upload';
  userId: string;
  uploadId: string | null;
  address: string;
}

/**
 * Issue 33: a reviewer sees a user's data only through a pending review, and every read of
 * personal data by an operator (profiles, review contexts, uploaded images) is a line of the
 * append-only access log, which admins read.
 */
describe.each(dbDrivers())('operators and personal data on %s', (kind) => {
  let t: TestDb;
  let api: TestApi;

  beforeAll(async () => {
    t = await openTestDb(kind);
    api = await buildTestApi(t.db);
  });
  afterAll(async () => {
    await api?.close();
    await t?.drop();
  });

  let names = 0;
  /** A named operator signed in from an address of its own; `from` is that address. */
  const operator = async (role: OperatorRole) => {
    const created = (
      await api.http
        .post('/api/ops/operators')
        .set(opsAuth)
        .send({ name: `pd_${role}_${++names}`, role })
        .expect(201)
    ).body as Created;
    const from = newTestAddress();
    const res = await api.http
      .post('/api/ops/session')
      .set('X-Forwarded-For', from)
      .send({
        name: created.operator.name,
        password: created.password,
        code: await generate({ secret: created.totpSecret }),
      })
      .expect(200);
    return {
      ...created.operator,
      from,
      auth: { Authorization: `Bearer ${res.body.token as string}`, 'X-Forwarded-For': from },
    };
  };
  const accessLog = (query: Record<string, string | number> = {}, auth = opsAuth) =>
    api.http.get('/api/ops/access-log').query(query).set(auth);
  const linesOf = async (query: Record<string, string | number>) =>
    (await accessLog(query).expect(200)).body.items as AccessLine[];
  const context = (userId: string, auth: Record<string, string>) =>
    api.http.get(`/api/ops/users/${userId}/review-context`).set(auth);

  it('gives a reviewer the review context only while the user has something pending', async () => {
    const reviewer = await operator('reviewer');
    const admin = await operator('admin');
    const support = await operator('support');
    const idle = await registerUser(api, 'idle');
    await fund(api, idle, 20_000);

    // Nothing under review: 404, as for a user that does not exist; the profile stays 403.
    const refused = await context(idle.user.id, reviewer.auth);
    expect([refused.status, refused.body.error.code]).toEqual([404, 'NOT_FOUND']);
    await context('99999999', reviewer.auth).expect(404);
    await api.http.get(`/api/ops/users/${idle.user.id}`).set(reviewer.auth).expect(403);
    // Roles that read any profile keep reading the context; support never reached it.
    await context(idle.user.id, admin.auth).expect(200);
    await context(idle.user.id, opsAuth).expect(200);
    await context(idle.user.id, support.auth).expect(403);

    // A pending deposit opens it, and its approval closes it again.
    const pending = await deposit(api, idle, 5_000);
    const open = await context(idle.user.id, reviewer.auth).expect(200);
    const shown = open.body as { deposits: { id: string }[] };
    expect(shown.deposits.map((d) => d.id)).toContain(pending);
    expect(open.body.balances.available).toBe(20_000);
    await api.http.post(`/api/ops/deposits/${pending}/approve`).set(reviewer.auth).expect(200);
    await context(idle.user.id, reviewer.auth).expect(404);

    // A pending withdrawal opens it.
    const withdrawer = await registerUser(api, 'wdr');
    await fund(api, withdrawer, 50_000);
    await context(withdrawer.user.id, reviewer.auth).expect(404);
    await postKyc(api, withdrawer.auth).expect(201);
    // A pending identity check opens it too.
    await context(withdrawer.user.id, reviewer.auth).expect(200);
    const checks = itemsOf<{ id: string; userId: string }>(
      await api.http.get('/api/ops/kyc?status=pending&limit=100').set(opsAuth).expect(200),
    );
    const kyc = checks.find((k) => k.userId === withdrawer.user.id)!;
    await api.http.post(`/api/ops/kyc/${kyc.id}/approve`).set(opsAuth).expect(200);
    await context(withdrawer.user.id, reviewer.auth).expect(404);
    // A bank account is bound once the identity is verified (its holder is that name).
    const accountId = await bindBank(api, withdrawer);
    await context(withdrawer.user.id, reviewer.auth).expect(404);
    const withdrawal = await api.http
      .post('/api/withdrawals')
      .set(withdrawer.auth)
      .send({ accountId, amount: 10_000, tradePassword: TRADE_PASSWORD })
      .expect(201);
    await context(withdrawer.user.id, reviewer.auth).expect(200);
    await api.http
      .post(`/api/ops/withdrawals/${withdrawal.body.id as string}/reject`)
      .set(opsAuth)
      .send({ reason: 'test' })
      .expect(200);
    await context(withdrawer.user.id, reviewer.auth).expect(404);
  });

  it('records every read of a profile, a review context and an uploaded image: who, what, whose, when, from where', async () => {
    const reviewer = await operator('reviewer');
    const support = await operator('support');
    const u = await registerUser(api, 'watched');
    const pending = await deposit(api, u, 7_000);
    const before = Date.now();

    await api.http.get(`/api/ops/users/${u.user.id}`).set(support.auth).expect(200);
    await context(u.user.id, reviewer.auth).expect(200);
    const queue = await api.http
      .get('/api/ops/deposits?status=pending&limit=100')
      .set(reviewer.auth)
      .expect(200);
    const shot = (queue.body.items as { id: string; screenshotId: string }[]).find(
      (d) => d.id === pending,
    )!.screenshotId;
    const image = await api.http.get(`/api/uploads/${shot}`).set(reviewer.auth).expect(200);
    // The stored image, re-encoded on arrival (uploads/image.ts): a PNG still.
    expect(image.headers['content-type']).toBe('image/png');
    expect(Buffer.from(image.body as Buffer).subarray(0, 8)).toEqual(images.png.subarray(0, 8));
    // The service token's reads are recorded as `service`.
    await api.http.get(`/api/ops/users/${u.user.id}`).set(opsAuth).expect(200);

    const lines = await linesOf({ user: u.user.id });
    expect(lines.map((l) => [l.operator, l.kind])).toEqual([
      ['service', 'profile'],
      [reviewer.name, 'upload'],
      [reviewer.name, 'review_context'],
      [support.name, 'profile'],
    ]);
    expect(lines[1]).toMatchObject({
      operatorId: reviewer.id,
      role: 'reviewer',
      userId: u.user.id,
      uploadId: shot,
      address: reviewer.from,
    });
    expect(lines[3]).toMatchObject({
      operatorId: support.id,
      role: 'support',
      uploadId: null,
      address: support.from,
    });
    expect(lines[0]!.operatorId).toBeNull();
    for (const l of lines) {
      expect(l.at).toBeGreaterThanOrEqual(before - 1000);
      expect(l.at).toBeLessThanOrEqual(Date.now() + 1000);
    }

    // Not recorded: the owner's own image, refusals, and reads that found nothing.
    await api.http.get(`/api/uploads/${shot}`).set(u.auth).expect(200);
    await api.http.get(`/api/ops/users/${u.user.id}`).set(reviewer.auth).expect(403);
    await api.http.get('/api/ops/users/99999999').set(support.auth).expect(404);
    await api.http.get('/api/uploads/AAAAAAAAAAAAAAAAAAAAAA').set(reviewer.auth).expect(404);
    const other = await registerUser(api, 'other');
    await context(other.user.id, reviewer.auth).expect(404);
    expect(await linesOf({ user: u.user.id })).toEqual(lines);
    expect(await linesOf({ user: other.user.id })).toEqual([]);
    expect(await linesOf({ user: 99999999 })).toEqual([]);
  });

  it('is read by admins only, filtered by operator and by user, page by page', async () => {
    const reviewer = await operator('reviewer');
    const support = await operator('support');
    const admin = await operator('admin');
    const a = await registerUser(api, 'pagea');
    const b = await registerUser(api, 'pageb');
    for (let i = 0; i < 3; i++) {
      await api.http.get(`/api/ops/users/${a.user.id}`).set(support.auth).expect(200);
      await api.http.get(`/api/ops/users/${b.user.id}`).set(support.auth).expect(200);
    }
    await api.http.get(`/api/ops/users/${a.user.id}`).set(admin.auth).expect(200);

    await accessLog({}, reviewer.auth).expect(403);
    await accessLog({}, support.auth).expect(403);
    const bySupport = await linesOf({ operator: support.name.toUpperCase() });
    expect(bySupport).toHaveLength(6);
    expect(new Set(bySupport.map((l) => l.operator))).toEqual(new Set([support.name]));
    const ofA = (await accessLog({ user: a.user.id }, admin.auth).expect(200)).body
      .items as AccessLine[];
    expect(ofA.map((l) => l.operator)).toEqual([
      admin.name,
      support.name,
      support.name,
      support.name,
    ]);
    const both = await linesOf({ operator: support.name, user: b.user.id });
    expect(both).toHaveLength(3);

    // Pages of two, newest first, with nothing left out or repeated.
    const seen: string[] = [];
    let cursor: string | null = null;
    do {
      const page = (
        await accessLog({ operator: support.name, limit: 2, ...(cursor ? { cursor } : {}) }).expect(
          200,
        )
      ).body as { items: AccessLine[]; nextCursor: string | null };
      expect(page.items.length).toBeLessThanOrEqual(2);
      seen.push(...page.items.map((l) => l.id));
      cursor = page.nextCursor;
    } while (cursor);
    expect(seen).toEqual(bySupport.map((l) => l.id));

    const bad: Record<string, string | number>[] = [
      { user: 'abc' },
      { user: 0 },
      { cursor: 'x' },
      { limit: 101 },
    ];
    for (const query of bad) {
      const res = await accessLog(query);
      expect(res.status, JSON.stringify(query)).toBe(400);
      expect(res.body.error.code).toBe('VALIDATION_FAILED');
    }
  });

  it('keeps the access log append-only: the database refuses UPDATE, DELETE and TRUNCATE', async () => {
    const { rows } = await t.db.query<{ n: number }>(
      'SELECT count(*)::int AS n FROM ops_access_log',
    );
    expect(rows[0]!.n).toBeGreaterThan(0);
    await expect(t.db.query("UPDATE ops_access_log SET address = 'elsewhere'")).rejects.toThrow(
      /append-only/,
    );
    await expect(t.db.query('DELETE FROM ops_access_log')).rejects.toThrow(/append-only/);
    await expect(t.db.query('TRUNCATE ops_access_log')).rejects.toThrow(/append-only/);
    const after = await t.db.query<{ n: number }>('SELECT count(*)::int AS n FROM ops_access_log');
    expect(after.rows[0]!.n).toBe(rows[0]!.n);
  });
});
