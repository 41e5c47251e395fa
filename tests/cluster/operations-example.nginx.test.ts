import { execFile } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import fs from 'node:fs';
import path from 'node:path';
import pg from 'pg';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { io as connect, type Socket } from 'socket.io-client';
import type { Hello, ClientToServerEvents, ServerToClientEvents } from '@shared/socket';
import type { Tick } from '@shared/market/model';
import { eventually } from '@tests/support/wait';
import { repoRoot } from '@tests/support/processes';
import {
  documentedCommonEnv,
  sourceWithBash,
  startExample,
  type RunningExample,
} from '@tests/support/operations-example';
import { DEFAULT_TERMS_VERSION } from '@shared/accounts/model';
import { configSchema } from '@server/config';

type Client = Socket<ServerToClientEvents, ClientToServerEvents>;

/** Sockets driven through the example's nginx (raw socket.io-client over websocket). */
const SOCKETS = 1000;

/**
 * The scaled example of docs/OPERATIONS.md, run as written (tests/support/operations-example.ts):
 * its common.env sourced by bash, a fresh database made by its commands, its sim, standby, two
 * apis, worker and two gateways in its order with production settings on PostgreSQL and Redis,
 * behind nginx with the documented configuration (only addresses, ports and paths changed).
 */
describe('the scaled example of docs/OPERATIONS.md', { timeout: 120_000 }, () => {
  let example: RunningExample;
  let base: string;
  let apiUrl: string;
  let token: string;
  const clients: Client[] = [];

  beforeAll(async () => {
    example = await startExample({
      // Not in the example: a quick test, and all its clients come from 127.0.0.1.
      SIM_BACKFILL_HOURS: '0',
      SHUTDOWN_TIMEOUT_MS: '5000',
    });
    base = example.base;
    apiUrl = `http://127.0.0.1:${example.processes.find((p) => p.role === 'api')!.port}`;
    token = example.common.OPERATOR_TOKEN!;
  }, 420_000);

  afterAll(async () => {
    for (const c of clients) c.disconnect();
    await example?.stop();
  }, 60_000);

  it('common.env sources with bash: every variable set to its documented value', async () => {
    const text = documentedCommonEnv();
    const lines = text.split('\n').filter((l) => l.trim() && !l.startsWith('#'));
    // One NAME='value' a line: quoted, so values with spaces survive a shell.
    for (const line of lines) expect(line).toMatch(/^[A-Z][A-Z0-9_]*='[^']*'$/);
    const documented = Object.fromEntries(
      lines.map((l) => [l.slice(0, l.indexOf('=')), l.slice(l.indexOf('=') + 2, -1)]),
    );
    expect(Object.keys(documented).length).toBeGreaterThanOrEqual(17);
    const file = path.join(example.dir, 'documented.env');
    fs.writeFileSync(file, text);
    const env = await sourceWithBash(file);
    for (const [name, value] of Object.entries(documented))
      expect(env[name], `${name} after sourcing`).toBe(value);
    expect(env.LEGAL_REGISTRATION).toMatch(/ /); // a value with spaces, whole
    // Every variable is one the configuration knows.
    for (const name of Object.keys(documented)) expect(configSchema.shape).toHaveProperty(name);
  });

  it('created its database by the documented commands, and the processes migrated it', async () => {
    const db = new URL(example.common.DATABASE_URL!);
    const c = new pg.Client({ connectionString: db.toString() });
    await c.connect();
    try {
      const owner = await c.query<{ owner: string; me: string }>(
        'SELECT pg_get_userbyid(datdba) AS owner, current_user AS me FROM pg_database WHERE datname = current_database()',
      );
      expect(owner.rows[0]).toEqual({ owner: db.username, me: db.username });
      const migrations = await c.query<{ n: string }>(
        'SELECT count(*) AS n FROM schema_migrations',
      );
      expect(Number(migrations.rows[0]!.n)).toBeGreaterThan(10);
    } finally {
      await c.end();
    }
  });

  const ops = (args: string[]) =>
    new Promise<{ status: number; stdout: string; stderr: string }>((resolve) =>
      execFile(
        path.join(repoRoot, 'node_modules/.bin/tsx'),
        ['scripts/ops.ts', ...args],
        {
          cwd: repoRoot,
          encoding: 'utf8',
          env: { ...process.env, OPS_URL: apiUrl, OPERATOR_TOKEN: token },
        },
        (err, stdout, stderr) =>
          resolve({ status: err ? Number(err.code ?? 1) : 0, stdout, stderr }),
      ),
    );

  it('serves operators on OPS_URL, and refuses /api/ops on the public side', async () => {
    const invite = await ops(['invites', 'create', '--code', 'FIRST2026']);
    expect(invite.stderr).toBe('');
    expect(invite.status).toBe(0);
    const ledger = await ops(['ledger', 'check']);
    expect(ledger.status).toBe(0);

    const headers = { authorization: `Bearer ${token}` };
    expect((await fetch(`${base}/api/ops/ledger/check`, { headers })).status).toBe(404);
    expect((await fetch(`${base}/API/OPS/ledger/check`, { headers })).status).toBe(404);
    expect((await fetch(`${base}/api/ops`, { headers })).status).toBe(404);
    expect((await fetch(`${base}/metrics`)).status).toBe(404);
    // The operator console is not public either.
    for (const p of ['/ops', '/ops/', '/ops.html', '/OPS.html', '/ops-assets/index.js'])
      expect((await fetch(`${base}${p}`)).status, p).toBe(404);
    expect((await fetch(`${apiUrl}/api/ops/ledger/check`, { headers })).status).toBe(200);
  });

  it('carries one request id through nginx and the api, or the client’s own', async () => {
    const res = await fetch(`${base}/api/no-such-endpoint`);
    expect(res.status).toBe(404);
    const id = res.headers.get('x-request-id')!;
    expect(id).toMatch(/^[0-9a-f]{32}$/); // nginx's $request_id, honoured by the api
    expect(((await res.json()) as { error: { requestId: string } }).error.requestId).toBe(id);
    await eventually(
      () => fs.readFileSync(`${example.dir}/trade.log`, 'utf8').includes(` ${id}`),
      5000,
      "the id on nginx's access line",
    );

    const own = await fetch(`${base}/api/app-info`, { headers: { 'x-request-id': 'mine-42' } });
    expect(own.headers.get('x-request-id')).toBe('mine-42');
  });

  it('registers with the invitation code, and a signed-in socket through nginx gets ticks', async () => {
    const post = (p: string, body: unknown) =>
      fetch(`${base}${p}`, {
        method: 'POST',
        headers: { 'content-type': 'application/json' },
        body: JSON.stringify(body),
      });
    const account = `ex${randomBytes(3).toString('hex')}`;
    const password = 'example pass 1';
    expect(
      (
        await post('/api/auth/register', {
          account,
          phone: '+15550100',
          inviteCode: 'first2026',
          password,
          passwordConfirm: password,
          tradePassword: '123456',
          tradePasswordConfirm: '123456',
          acceptTerms: DEFAULT_TERMS_VERSION,
        })
      ).status,
    ).toBe(201);
    const login = (await (await post('/api/auth/login', { account, password })).json()) as {
      token: string;
      user: { id: string };
    };

    const c: Client = connect(base, { transports: ['websocket'], auth: { token: login.token } });
    clients.push(c);
    const hello = await new Promise<Hello>((r) => c.once('hello', r));
    expect(hello.userId).toBe(login.user.id); // checked with the api through the balancer
    const ticks: Tick[] = [];
    c.on('tick', (tk) => ticks.push(tk));
    await new Promise((r) => c.emit('subscribe', ['ticks:BTCUSDT'], r));
    await eventually(() => ticks.length >= 3, 15_000, 'ticks through nginx');
  });

  it(`carries ${SOCKETS} sockets through nginx, every one receiving ticks`, async () => {
    const heard = new Set<number>();
    const connected = new Set<number>();
    // In batches, as clients arrive: a thousand handshakes at once would only measure the test.
    for (let i = 0; i < SOCKETS; i += 100) {
      const batch = Array.from({ length: Math.min(100, SOCKETS - i) }, (_, k) => i + k);
      await Promise.all(
        batch.map(
          (n) =>
            new Promise<void>((resolve, reject) => {
              const c: Client = connect(base, { transports: ['websocket'], forceNew: true });
              clients.push(c);
              c.on('tick', () => heard.add(n));
              c.once('connect_error', reject);
              c.once('hello', () => {
                connected.add(n);
                c.emit('subscribe', ['ticks:BTCUSDT'], () => resolve());
              });
            }),
        ),
      );
    }
    expect(connected.size).toBe(SOCKETS);
    await eventually(() => heard.size === SOCKETS, 30_000, `ticks on all ${SOCKETS} sockets`);
    console.log(
      `operations example: ${connected.size} sockets through nginx, ${heard.size} heard ticks`,
    );
  });
});
