import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Message } from '@shared/content/model';
import { dbDrivers, openTestDb, type TestDb } from '@tests/support/db';
import { buildTestApi, registerUser, type TestApi } from '@tests/support/api';
import {
  deposit,
  itemsOf,
  opsAuth,
  postKyc,
  readyUser,
  type TestUser,
} from '@tests/support/wallet';
import { fallbackText, plainAmount } from './system-messages';

describe.each(dbDrivers())('system messages on %s', (kind) => {
  let t: TestDb;
  let api: TestApi;
  beforeAll(async () => {
    t = await openTestDb(kind);
    api = await buildTestApi(t.db);
  });
  afterAll(async () => {
    await api.close();
    await t.drop();
  });

  const unread = async (u: TestUser) =>
    (await api.http.get('/api/messages/unread-count').set(u.auth).expect(200)).body.count as number;
  const messagesOf = async (u: TestUser, query = '') =>
    itemsOf<Message>(await api.http.get(`/api/messages${query}`).set(u.auth).expect(200));
  const send = (body: Record<string, unknown>) =>
    api.http.post('/api/ops/messages').set(opsAuth).send(body);
  const eventsOf = (u: TestUser) =>
    api.userEvents.sent.filter((e) => e.userId === u.user.id && e.event === 'message');

  it('counts 1 200 unread messages (own and broadcast), pages them, and counts down as they are read', async () => {
    const u = await registerUser(api, 'many');
    const uid = Number(u.user.id);
    expect(await unread(u)).toBe(0);
    expect(await messagesOf(u)).toEqual([]);
    // Written straight into the tables: 700 to this user, 500 broadcasts.
    await t.db.query(
      `INSERT INTO messages (user_id, kind, title, body)
       SELECT $1, 'custom', 'Own ' || i, 'Body ' || i FROM generate_series(1, 700) i`,
      [uid],
    );
    await t.db.query(
      `INSERT INTO messages (user_id, kind, title, body)
       SELECT NULL, 'custom', 'All ' || i, 'Body ' || i FROM generate_series(1, 500) i`,
    );
    expect(await unread(u)).toBe(1200);
    const { rows } = await t.db.query<{ n: number }>(
      'SELECT count(*)::int AS n FROM message_reads',
    );
    expect(rows[0]!.n).toBe(0);

    // Paging walks all 1 200, newest first, without repeats.
    const seen: string[] = [];
    let cursor: string | null = null;
    do {
      const query: string = `?limit=100${cursor ? `&cursor=${cursor}` : ''}`;
      const res = await api.http.get(`/api/messages${query}`).set(u.auth).expect(200);
      seen.push(...itemsOf<Message>(res).map((m) => m.id));
      cursor = res.body.nextCursor;
    } while (cursor);
    expect(seen).toHaveLength(1200);
    expect(new Set(seen).size).toBe(1200);
    expect(seen.map(Number)).toEqual([...seen.map(Number)].sort((a, b) => b - a));

    const [newest] = await messagesOf(u, '?limit=1');
    expect(newest).toMatchObject({
      kind: 'custom',
      title: 'All 500',
      broadcast: true,
      read: false,
    });
    await api.http.post(`/api/messages/${newest!.id}/read`).set(u.auth).expect(204);
    await api.http.post(`/api/messages/${newest!.id}/read`).set(u.auth).expect(204);
    expect(await unread(u)).toBe(1199);
    const { rows: own } = await t.db.query<{ id: number }>(
      'SELECT max(id) AS id FROM messages WHERE user_id = $1',
      [uid],
    );
    await api.http.post(`/api/messages/${own[0]!.id}/read`).set(u.auth).expect(204);
    expect(await unread(u)).toBe(1198);
    expect((await messagesOf(u, '?limit=1'))[0]!.read).toBe(true);

    // A user who registers after the broadcasts does not inherit them.
    const later = await registerUser(api, 'later');
    expect(await unread(later)).toBe(0);
    await api.http.post(`/api/messages/${newest!.id}/read`).set(later.auth).expect(404);

    await api.http.post('/api/messages/read-all').set(u.auth).expect(204);
    expect(await unread(u)).toBe(0);
    expect((await messagesOf(u, '?limit=100')).every((m) => m.read)).toBe(true);
    await t.db.query(`DELETE FROM message_reads`);
    await t.db.query(`DELETE FROM messages`);
  });

  it("keeps another user's message out of reach: not listed, not readable, not markable (404)", async () => {
    const a = await registerUser(api, 'alice');
    const b = await registerUser(api, 'bob');
    const sent = await send({ userId: a.user.id, title: 'For Alice', body: 'Private' }).expect(201);
    expect(sent.body).toMatchObject({ userId: a.user.id, kind: 'custom', title: 'For Alice' });
    expect((await messagesOf(a)).map((m) => m.title)).toEqual(['For Alice']);
    expect(await messagesOf(b)).toEqual([]);
    const res = await api.http.post(`/api/messages/${sent.body.id}/read`).set(b.auth).expect(404);
    expect(res.body.error.code).toBe('NOT_FOUND');
    expect(await unread(a)).toBe(1);
    await api.http.post(`/api/messages/999999/read`).set(a.auth).expect(404);
    await api.http.post('/api/messages/read-all').set(b.auth).expect(204);
    expect(await unread(a)).toBe(1);
    const bad = await api.http.post('/api/messages/abc/read').set(a.auth).expect(400);
    expect(bad.body.error).toMatchObject({ code: 'VALIDATION_FAILED', field: 'id' });
    await api.http.post(`/api/messages/${sent.body.id}/read`).expect(401);
    await api.http.get('/api/messages').expect(401);
    await api.http.get('/api/messages/unread-count').expect(401);
    // The socket event reached Alice only.
    expect(eventsOf(a).map((e) => e.payload)).toEqual([{ id: sent.body.id, title: 'For Alice' }]);
    expect(eventsOf(b)).toEqual([]);
  });

  it('keeps read state of a broadcast per user, and tells every user about it', async () => {
    const a = await registerUser(api, 'bca');
    const b = await registerUser(api, 'bcb');
    const sent = await send({ title: 'Maintenance tonight', body: '02:00–03:00 UTC' }).expect(201);
    expect(sent.body).toMatchObject({ userId: null, title: 'Maintenance tonight' });
    for (const u of [a, b]) {
      expect(await unread(u)).toBe(1);
      expect(eventsOf(u).at(-1)?.payload).toEqual({
        id: sent.body.id,
        title: 'Maintenance tonight',
      });
    }
    await api.http.post(`/api/messages/${sent.body.id}/read`).set(a.auth).expect(204);
    expect(await unread(a)).toBe(0);
    expect(await unread(b)).toBe(1);
    expect((await messagesOf(a))[0]).toMatchObject({ broadcast: true, read: true });
    expect((await messagesOf(b))[0]).toMatchObject({ broadcast: true, read: false });
    // One broadcast row, one read row: nothing copied per user.
    const { rows } = await t.db.query<{ messages: number; reads: number }>(
      `SELECT (SELECT count(*)::int FROM messages WHERE id = $1) AS messages,
              (SELECT count(*)::int FROM message_reads WHERE message_id = $1) AS reads`,
      [Number(sent.body.id)],
    );
    expect(rows[0]).toEqual({ messages: 1, reads: 1 });
  });

  describe('review actions write a message in the user’s language-neutral form', () => {
    const latest = async (u: TestUser) => (await messagesOf(u, '?limit=1'))[0]!;

    it('deposit approved and rejected', async () => {
      const u = await registerUser(api, 'dep');
      const ok = await deposit(api, u, 250_000);
      await api.http.post(`/api/ops/deposits/${ok}/approve`).set(opsAuth).expect(200);
      const approved = await latest(u);
      expect(approved).toMatchObject({
        kind: 'deposit_approved',
        params: { amount: 250_000, ref: ok },
        title: '充值已到账',
        broadcast: false,
        read: false,
      });
      expect(approved.body).toContain('2500.00');
      expect(eventsOf(u).at(-1)?.payload).toEqual({ id: approved.id, title: '充值已到账' });

      const bad = await deposit(api, u, 10_000);
      await api.http
        .post(`/api/ops/deposits/${bad}/reject`)
        .set(opsAuth)
        .send({ reason: 'No transfer found' })
        .expect(200);
      expect(await latest(u)).toMatchObject({
        kind: 'deposit_rejected',
        params: { amount: 10_000, reason: 'No transfer found', ref: bad },
      });
      // A second review is refused and writes nothing.
      await api.http.post(`/api/ops/deposits/${bad}/approve`).set(opsAuth).expect(409);
      expect(await unread(u)).toBe(2);
    });

    it('withdrawal succeeded and failed', async () => {
      const u = await readyUser(api, 100_000, 'wd');
      const withdraw = async () =>
        (
          await api.http
            .post('/api/withdrawals')
            .set(u.auth)
            .send({ accountId: u.accountId, amount: 20_000, tradePassword: '123456' })
            .expect(201)
        ).body.id as string;
      const paid = await withdraw();
      await api.http.post(`/api/ops/withdrawals/${paid}/approve`).set(opsAuth).expect(200);
      expect(await latest(u)).toMatchObject({
        kind: 'withdrawal_succeeded',
        params: { amount: 20_000, ref: paid },
      });
      const failed = await withdraw();
      await api.http
        .post(`/api/ops/withdrawals/${failed}/reject`)
        .set(opsAuth)
        .send({ reason: 'Card closed' })
        .expect(200);
      expect(await latest(u)).toMatchObject({
        kind: 'withdrawal_failed',
        params: { amount: 20_000, reason: 'Card closed', ref: failed },
      });
      // readyUser's identity check, bound account (a security message) and deposit, then each
      // withdrawal's request (a security message) and its outcome.
      expect((await messagesOf(u)).map((m) => m.kind)).toEqual([
        'withdrawal_failed',
        'security_withdrawal',
        'withdrawal_succeeded',
        'security_withdrawal',
        'deposit_approved',
        'security_withdrawal_account',
        'kyc_verified',
      ]);
    });

    it('identity check rejected, then verified', async () => {
      const u = await registerUser(api, 'kyc');
      const pendingId = async () => {
        const list = await api.http.get('/api/ops/kyc?status=pending&limit=100').set(opsAuth);
        return itemsOf<{ id: string; userId: string }>(list).find((k) => k.userId === u.user.id)!
          .id;
      };
      await postKyc(api, u.auth).expect(201);
      await api.http
        .post(`/api/ops/kyc/${await pendingId()}/reject`)
        .set(opsAuth)
        .send({ reason: 'Photo is blurred' })
        .expect(200);
      expect(await latest(u)).toMatchObject({
        kind: 'kyc_rejected',
        params: { reason: 'Photo is blurred' },
        title: '实名认证未通过',
      });
      await postKyc(api, u.auth).expect(201);
      await api.http
        .post(`/api/ops/kyc/${await pendingId()}/approve`)
        .set(opsAuth)
        .expect(200);
      expect(await latest(u)).toMatchObject({ kind: 'kyc_verified', params: {} });
      expect(await unread(u)).toBe(2);
    });
  });

  describe('refuses bad operator messages with a clear 4xx', () => {
    it.each([
      ['no title', { body: 'x' }, 'title'],
      ['a blank title', { title: '   ', body: 'x' }, 'title'],
      ['a title of 121 characters', { title: 'x'.repeat(121), body: 'x' }, 'title'],
      ['no body', { title: 'x' }, 'body'],
      ['a body of 2 001 characters', { title: 'x', body: 'x'.repeat(2001) }, 'body'],
      ['a user id that is a name', { title: 'x', body: 'y', userId: 'alice' }, 'userId'],
      ['a negative user id', { title: 'x', body: 'y', userId: -3 }, 'userId'],
    ])('%s → 400 naming %s', async (_what, body, field) => {
      const res = await send(body).expect(400);
      expect(res.body.error).toMatchObject({ code: 'VALIDATION_FAILED', field });
    });

    it('404 for an unknown user, 401/403 without the operator token', async () => {
      const res = await send({ userId: '999999', title: 'x', body: 'y' }).expect(404);
      expect(res.body.error.code).toBe('NOT_FOUND');
      const u = await registerUser(api, 'nops');
      await api.http.post('/api/ops/messages').send({ title: 'x', body: 'y' }).expect(401);
      await api.http
        .post('/api/ops/messages')
        .set(u.auth)
        .send({ title: 'x', body: 'y' })
        .expect(401); // a trader's session is no operator credential
    });
  });
});

describe('the zh-CN fallback wording', () => {
  it('formats minor units exactly and names the reason', () => {
    expect(plainAmount(0)).toBe('0.00');
    expect(plainAmount(5)).toBe('0.05');
    expect(plainAmount(123_456_789)).toBe('1234567.89');
    expect(fallbackText('withdrawal_failed', { amount: 1050, reason: 'Card closed' })).toEqual({
      title: '提现失败',
      body: '您的提现 10.50 未能完成，金额已退回可用余额。原因：Card closed',
    });
  });
});
