import { execFile, spawn, type ChildProcess } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { io as connect, type Socket } from 'socket.io-client';
import type { Hello, ClientToServerEvents, ServerToClientEvents } from '@shared/socket';
import type { Tick } from '@shared/market';
import { eventually } from '@tests/support/wait';
import { openTestDb, urlWithSchema, type TestDb } from '@tests/support/db';
import { repoRoot, startEntry, waitForHttp, type RunningProcess } from '@tests/support/processes';
import { freePort, startPrivateRedis, type PrivateRedis } from '@tests/support/redis-server';
import { oneAddressSocketEnv } from '@tests/support/socket-limits';
import { nginxPath } from '@tests/support/tiers';
import { DEFAULT_TERMS_VERSION } from '@shared/accounts';

type Client = Socket<ServerToClientEvents, ClientToServerEvents>;

/** The ```nginx block of docs/OPERATIONS.md ("A complete scaled example"), as written there. */
function documentedNginxConf(): string {
  const doc = fs.readFileSync(path.join(repoRoot, 'docs/OPERATIONS.md'), 'utf8');
  const block = /```nginx\n([\s\S]*?)```/.exec(doc);
  if (!block) throw new Error('docs/OPERATIONS.md has no nginx block');
  return block[1]!;
}

/**
 * The scaled example of docs/OPERATIONS.md, run as written: sim, api, worker and two gateways
 * with production settings on PostgreSQL and Redis, behind nginx with the documented
 * configuration (only its addresses, ports and file paths changed).
 */
describe('the scaled example of docs/OPERATIONS.md', { timeout: 120_000 }, () => {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'trade-ops-example-'));
  const token = `ops-example-${randomBytes(8).toString('hex')}`;
  let t: TestDb;
  let redis: PrivateRedis;
  let nginx: ChildProcess;
  let base: string;
  let apiUrl: string;
  const procs: RunningProcess[] = [];
  const clients: Client[] = [];

  beforeAll(async () => {
    [t, redis] = await Promise.all([openTestDb('postgres'), startPrivateRedis()]);
    const [sim, api, worker, gw1, gw2, lb] = (await Promise.all(
      Array.from({ length: 6 }, () => freePort()),
    )) as [number, number, number, number, number, number];
    base = `http://127.0.0.1:${lb}`;
    apiUrl = `http://127.0.0.1:${api}`;

    const conf = documentedNginxConf()
      .replace('server 127.0.0.1:3001 ', `server 127.0.0.1:${api} `)
      .replace('server 127.0.0.1:3002 ', `server 127.0.0.1:${gw1} `)
      .replace('server 127.0.0.1:3003 ', `server 127.0.0.1:${gw2} `)
      .replace('listen 8080;', `listen 127.0.0.1:${lb};`)
      .replace('/var/log/nginx/trade.log', `${dir}/trade.log`)
      .replace(
        'http {',
        `http {\n  client_body_temp_path ${dir}/body;\n  proxy_temp_path ${dir}/proxy;`,
      );
    expect(conf).not.toMatch(/:300[123] |listen 8080|\/var\/log/); // every address was replaced
    fs.writeFileSync(path.join(dir, 'nginx.conf'), `pid ${dir}/nginx.pid;\n${conf}`);

    // /etc/trade/common.env of the example, with this run's database, Redis and secrets.
    const common = {
      NODE_ENV: 'production',
      DATABASE_URL: urlWithSchema(t.url!, t.schema!),
      REDIS_URL: redis.url,
      REDIS_NAMESPACE: `example-${randomBytes(3).toString('hex')}`,
      OPERATOR_TOKEN: token,
      SERVICE_URL: 'https://support.example.com/chat',
      DEPOSIT_BANK_NAME: 'Example Bank',
      DEPOSIT_BANK_CARD: '6222020000001234567',
      DEPOSIT_BANK_HOLDER: 'Example Trading Ltd',
      DEPOSIT_TRC20_ADDRESS: `T${'A'.repeat(33)}`,
      DEPOSIT_ERC20_ADDRESS: `0x${'ab'.repeat(20)}`,
      LEGAL_ENTITY: 'Example Operations Ltd',
      LEGAL_REGISTRATION: 'Company no. 12345678',
      DATA_DIR: path.join(dir, 'data'),
      TRUST_PROXY: 'loopback',
      API_URL: base,
      LOG_LEVEL: 'info',
      // Not in the example: a quick test, and all its clients come from 127.0.0.1.
      SIM_BACKFILL_HOURS: '0',
      SHUTDOWN_TIMEOUT_MS: '5000',
      ...oneAddressSocketEnv,
    };
    const start = async (role: string, port: number) => {
      procs.push(startEntry(`server/src/main/${role}.ts`, { ...common, PORT: String(port) }));
      await waitForHttp(`http://127.0.0.1:${port}/readyz`, 200, 60_000);
    };
    await start('sim', sim);
    await start('api', api);
    await Promise.all([start('worker', worker), start('gateway', gw1), start('gateway', gw2)]);

    nginx = spawn(
      nginxPath,
      ['-p', dir, '-c', 'nginx.conf', '-e', `${dir}/error.log`, '-g', 'daemon off;'],
      { stdio: 'ignore' },
    );
    await waitForHttp(`${base}/readyz`);
  }, 180_000);

  afterAll(async () => {
    for (const c of clients) c.disconnect();
    if (nginx?.exitCode === null) {
      const exited = new Promise((r) => nginx.once('exit', r));
      nginx.kill('SIGQUIT');
      await exited;
    }
    await Promise.all(procs.map((p) => p.stop('SIGTERM')));
    await redis?.kill();
    await t?.drop();
    fs.rmSync(dir, { recursive: true, force: true });
  }, 60_000);

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
    expect((await fetch(`${apiUrl}/api/ops/ledger/check`, { headers })).status).toBe(200);
  });

  it('carries one request id through nginx and the api, or the client’s own', async () => {
    const res = await fetch(`${base}/api/no-such-endpoint`);
    expect(res.status).toBe(404);
    const id = res.headers.get('x-request-id')!;
    expect(id).toMatch(/^[0-9a-f]{32}$/); // nginx's $request_id, honoured by the api
    expect(((await res.json()) as { error: { requestId: string } }).error.requestId).toBe(id);
    await eventually(
      () => fs.readFileSync(`${dir}/trade.log`, 'utf8').includes(` ${id}`),
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
});
