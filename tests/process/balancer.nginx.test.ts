import { spawn, type ChildProcess } from 'node:child_process';
import fs from 'node:fs';
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { repoRoot, waitForHttp } from '@tests/support/processes';
import { freePort } from '@tests/support/redis-server';
import { nginxPath } from '@tests/support/tiers';

/**
 * deploy/nginx.conf itself, run by a real nginx: only the addresses change (upstreams to local
 * stand-ins that record what reaches them, a free port, files in a temporary directory).
 */
describe('the balancer (deploy/nginx.conf)', () => {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'trade-nginx-'));
  const reached: string[] = [];
  const upstreams: http.Server[] = [];
  let nginx: ChildProcess;
  let base: string;

  /** A stand-in for api or gateway processes: answers 200 "<name> <path>" and records the path. */
  const standIn = async (name: string) => {
    const server = http.createServer((req, res) => {
      reached.push(req.url ?? '');
      res.end(`${name} ${req.url}`);
    });
    await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
    upstreams.push(server);
    return (server.address() as AddressInfo).port;
  };

  beforeAll(async () => {
    const [api, gateway, port] = [await standIn('api'), await standIn('gateway'), await freePort()];
    const conf = fs
      .readFileSync(path.join(repoRoot, 'deploy/nginx.conf'), 'utf8')
      .replace(/server api\d:3000[^;]*;/g, `server 127.0.0.1:${api};`)
      .replace(/server gateway\d:3000[^;]*;/g, `server 127.0.0.1:${gateway};`)
      .replace('listen 80;', `listen 127.0.0.1:${port};`)
      .replace(
        'http {',
        `http {\n  access_log off;\n  client_body_temp_path ${dir}/body;\n  proxy_temp_path ${dir}/proxy;`,
      );
    expect(conf).not.toMatch(/:3000|listen 80;/); // every address was replaced
    fs.writeFileSync(path.join(dir, 'nginx.conf'), `pid ${dir}/nginx.pid;\n${conf}`);
    nginx = spawn(
      nginxPath,
      ['-p', dir, '-c', 'nginx.conf', '-e', `${dir}/error.log`, '-g', 'daemon off;'],
      { stdio: 'ignore' },
    );
    base = `http://127.0.0.1:${port}`;
    await waitForHttp(`${base}/healthz`);
  });

  afterAll(async () => {
    if (nginx?.exitCode === null) {
      const exited = new Promise((r) => nginx.once('exit', r));
      nginx.kill('SIGQUIT');
      await exited;
    }
    for (const s of upstreams) s.close();
    fs.rmSync(dir, { recursive: true, force: true });
  });

  it('passes the app and the socket path through', async () => {
    const home = await fetch(`${base}/api/market/products`);
    expect(await home.text()).toBe('api /api/market/products');
    const socket = await fetch(`${base}/socket.io/?EIO=4&transport=polling`);
    expect(await socket.text()).toMatch(/^gateway \/socket\.io\//);
  });

  it('refuses /metrics from outside, however it is spelled, without asking any process', async () => {
    reached.length = 0;
    for (const p of [
      '/metrics',
      '/metrics/',
      '/metrics?x=1',
      '/METRICS',
      '/Metrics',
      '//metrics',
      '/%6detrics',
      '/./metrics',
    ])
      expect({ path: p, status: (await fetch(`${base}${p}`)).status }).toEqual({
        path: p,
        status: 404,
      });
    expect(reached).toEqual([]);
  });

  it('refuses the operator API (/api/ops) from outside, however it is spelled', async () => {
    reached.length = 0;
    for (const p of [
      '/api/ops',
      '/api/ops/',
      '/api/ops/ledger/check',
      '/api/ops/deposits?status=pending',
      '/API/OPS/house',
      '/api/Ops/withdrawals',
      '//api//ops/house',
      '/api/%6fps/house',
      '/api/./ops/house',
      '/api/market/../ops/house',
    ])
      expect({ path: p, status: (await fetch(`${base}${p}`)).status }).toEqual({
        path: p,
        status: 404,
      });
    for (const method of ['POST', 'PUT', 'DELETE'])
      expect((await fetch(`${base}/api/ops/deposits/1/approve`, { method })).status).toBe(404);
    expect(reached).toEqual([]);
    // Paths that only look alike still reach the api.
    expect(await (await fetch(`${base}/api/opsx`)).text()).toBe('api /api/opsx');
  });

  it('refuses the operator console (/ops/) from outside', async () => {
    reached.length = 0;
    for (const p of ['/ops', '/ops/', '/OPS/', '/ops.html', '/ops-assets/ops-abc.js', '//ops/'])
      expect({ path: p, status: (await fetch(`${base}${p}`)).status }).toEqual({
        path: p,
        status: 404,
      });
    expect(reached).toEqual([]);
    expect(await (await fetch(`${base}/opsx`)).text()).toBe('api /opsx');
  });
});
