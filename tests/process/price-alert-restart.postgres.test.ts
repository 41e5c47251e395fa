import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { DEFAULT_TERMS_VERSION } from '@shared/accounts/model';
import type { PriceAlert } from '@shared/alerts/model';
import type { Message } from '@shared/content/model';
import { insertInviteCode } from '@server/modules/auth/auth.repo';
import { openTestDb, urlWithSchema, type TestDb } from '@tests/support/db';
import { recordTick } from '@tests/support/orders';
import { startEntry, waitForHttp, type RunningProcess } from '@tests/support/processes';
import { freePort } from '@tests/support/redis-server';

/**
 * A price alert lives in the database: set through one api process, that process stopped, a
 * crossing tick recorded while no api runs, and a new api process on the same database fires it,
 * once, at that tick, with its message.
 */
describe('a price alert across a restart of the api (PostgreSQL)', { timeout: 180_000 }, () => {
  let t: TestDb;
  let port: number;
  const running: RunningProcess[] = [];
  const startApi = async () => {
    const api = startEntry('server/src/main/api.ts', {
      DATABASE_URL: urlWithSchema(t.url!, t.schema!),
      REDIS_URL: '',
      PORT: String(port),
      SETTLEMENT_WORKER: 'off',
      ALERT_EVALUATE_MS: '100',
      LOG_LEVEL: 'warn',
      SHUTDOWN_TIMEOUT_MS: '5000',
    });
    running.push(api);
    await waitForHttp(`http://127.0.0.1:${port}/readyz`, 200, 90_000);
    return api;
  };
  const call = async (path: string, init: RequestInit & { token?: string } = {}) => {
    const res = await fetch(`http://127.0.0.1:${port}/api${path}`, {
      ...init,
      headers: {
        'Content-Type': 'application/json',
        ...(init.token ? { Authorization: `Bearer ${init.token}` } : {}),
      },
    });
    return { status: res.status, body: (await res.json().catch(() => null)) as never };
  };

  beforeAll(async () => {
    t = await openTestDb('postgres');
    await insertInviteCode(t.db, 'WELCOME', null);
    port = await freePort();
  });
  afterAll(async () => {
    await Promise.all(running.map((p) => p.stop('SIGKILL')));
    await t.drop();
  });

  it('is fired by the next process at the first crossing tick, once', async () => {
    const first = await startApi();
    await recordTick(t.db, 'BTCUSDT', 6_000_000); // 60000.00
    const account = `restart${Date.now().toString(36).slice(-6)}`;
    const password = 'correct horse 1';
    const reg = await call('/auth/register', {
      method: 'POST',
      body: JSON.stringify({
        account,
        phone: '+8613800138000',
        inviteCode: 'WELCOME',
        password,
        passwordConfirm: password,
        tradePassword: '123456',
        tradePasswordConfirm: '123456',
        acceptTerms: DEFAULT_TERMS_VERSION,
      }),
    });
    expect(reg.status).toBe(201);
    const login = await call('/auth/login', {
      method: 'POST',
      body: JSON.stringify({ account, password }),
    });
    const token = (login.body as { token: string }).token;
    const created = await call('/alerts', {
      method: 'POST',
      token,
      body: JSON.stringify({ product: 'BTCUSDT', direction: 'above', price: '60100' }),
    });
    expect(created.status).toBe(201);
    const alert = created.body as PriceAlert;
    expect(await first.stop('SIGTERM')).toBe(0);

    // While no api runs the tape crosses: first a tick short of the price, then the crossing.
    await recordTick(t.db, 'BTCUSDT', 6_009_999);
    const crossing = await recordTick(t.db, 'BTCUSDT', 6_010_000);
    await recordTick(t.db, 'BTCUSDT', 6_020_000);
    const pending = await t.db.query('SELECT 1 FROM price_alerts WHERE fired_at IS NULL');
    expect(pending.rows).toHaveLength(1);

    const second = await startApi();
    const deadline = Date.now() + 30_000;
    let fired: PriceAlert[] = [];
    while (Date.now() < deadline) {
      fired = ((await call('/alerts', { token })).body as { fired: PriceAlert[] }).fired;
      if (fired.length) break;
      await new Promise((r) => setTimeout(r, 100));
    }
    expect(fired.map((a) => [a.id, a.fired])).toEqual([
      [alert.id, { seq: crossing.seq, ts: crossing.ts, price: '60100.00' }],
    ]);
    // Stopped (its jobs finished), the database holds one message for the alert.
    expect(await second.stop('SIGTERM')).toBe(0);
    const messages = await t.db.query<Pick<Message, 'params'>>(
      `SELECT params FROM messages WHERE kind = 'price_alert'`,
    );
    expect(messages.rows.map((m) => m.params)).toEqual([
      expect.objectContaining({ ref: alert.id, tick: crossing.seq, price: '60100.00' }),
    ]);
  });
});
