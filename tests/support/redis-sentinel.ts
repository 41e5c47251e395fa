import { spawn, type ChildProcess } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { Redis } from 'ioredis';
import { stablePort } from './redis-server';

export const MASTER_NAME = 'trade';

interface Member {
  port: number;
  child: ChildProcess | null;
}

/**
 * A private Redis under Sentinel for the chaos tests: a master, one replica and three sentinels
 * (quorum 2), on free ports of 127.0.0.1. `failover()` asks the sentinels to promote the replica
 * (what they do by themselves once a master stops answering for `down-after` ms); `kill()` stops
 * a member outright.
 */
export interface SentinelCluster {
  /** For REDIS_SENTINELS. */
  sentinels: string;
  masterName: string;
  /** The master's port now, as the sentinels say. */
  masterPort(): Promise<number>;
  /** Forces a failover and waits until the sentinels name the other member as master. */
  failover(): Promise<{ from: number; to: number }>;
  /** SIGKILLs the member on `port` (a crash); `restart` brings it back as it was configured. */
  kill(port: number): Promise<void>;
  restart(port: number): Promise<void>;
  stop(): Promise<void>;
}

export async function startSentinelCluster({
  downAfterMs = 1000,
}: { downAfterMs?: number } = {}): Promise<SentinelCluster> {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'sentinel-'));
  const members: Member[] = [];
  const sentinels: Member[] = [];
  const configs = new Map<number, string[]>();

  const waitPing = async (port: number) => {
    const deadline = Date.now() + 15_000;
    for (;;) {
      const r = new Redis({
        port,
        host: '127.0.0.1',
        lazyConnect: true,
        retryStrategy: () => null,
      });
      r.on('error', () => undefined);
      try {
        await r.connect();
        await r.ping();
        r.disconnect();
        return;
      } catch {
        r.disconnect();
        if (Date.now() > deadline) throw new Error(`redis on ${port} did not start`);
        await new Promise((res) => setTimeout(res, 50));
      }
    }
  };
  const launch = async (m: Member, args: string[]) => {
    m.child = spawn('redis-server', args, { stdio: 'ignore' });
    await waitPing(m.port);
  };

  for (let i = 0; i < 2; i++) {
    const m: Member = { port: await stablePort(), child: null };
    const args = [
      '--port',
      String(m.port),
      '--bind',
      '127.0.0.1',
      '--save',
      '',
      '--appendonly',
      'no',
      // A replica's full sync writes an RDB file in the working directory: not the checkout.
      '--dir',
      dir,
      ...(i === 1 ? ['--replicaof', '127.0.0.1', String(members[0]!.port)] : []),
    ];
    configs.set(m.port, args);
    await launch(m, args);
    members.push(m);
  }
  for (let i = 0; i < 3; i++) {
    const s: Member = { port: await stablePort(), child: null };
    // A sentinel rewrites its configuration file: each has its own.
    const file = path.join(dir, `sentinel-${s.port}.conf`);
    fs.writeFileSync(
      file,
      [
        `port ${s.port}`,
        'bind 127.0.0.1',
        `dir ${dir}`,
        `sentinel monitor ${MASTER_NAME} 127.0.0.1 ${members[0]!.port} 2`,
        `sentinel down-after-milliseconds ${MASTER_NAME} ${downAfterMs}`,
        `sentinel failover-timeout ${MASTER_NAME} 10000`,
        `sentinel parallel-syncs ${MASTER_NAME} 1`,
        '',
      ].join('\n'),
    );
    const args = [file, '--sentinel'];
    configs.set(s.port, args);
    await launch(s, args);
    sentinels.push(s);
  }

  const ask = async () => {
    for (const s of sentinels) {
      const r = new Redis({
        port: s.port,
        host: '127.0.0.1',
        lazyConnect: true,
        retryStrategy: () => null,
      });
      r.on('error', () => undefined);
      try {
        await r.connect();
        const [, port] = (await r.call('SENTINEL', 'get-master-addr-by-name', MASTER_NAME)) as [
          string,
          string,
        ];
        return Number(port);
      } catch {
        // ask the next sentinel
      } finally {
        r.disconnect();
      }
    }
    throw new Error('no sentinel answers');
  };
  // The sentinels must have found the replica before a failover can pick it.
  const deadline = Date.now() + 20_000;
  for (;;) {
    const r = new Redis({ port: sentinels[0]!.port, host: '127.0.0.1' });
    const replicas = (await r.call('SENTINEL', 'replicas', MASTER_NAME)) as unknown[];
    r.disconnect();
    if (replicas.length > 0) break;
    if (Date.now() > deadline) throw new Error('the sentinels did not find the replica');
    await new Promise((res) => setTimeout(res, 200));
  }

  const byPort = (port: number) => [...members, ...sentinels].find((m) => m.port === port);
  return {
    sentinels: sentinels.map((s) => `127.0.0.1:${s.port}`).join(','),
    masterName: MASTER_NAME,
    masterPort: ask,
    async failover() {
      const from = await ask();
      const r = new Redis({ port: sentinels[0]!.port, host: '127.0.0.1' });
      await r.call('SENTINEL', 'failover', MASTER_NAME);
      r.disconnect();
      const until = Date.now() + 30_000;
      for (;;) {
        const to = await ask().catch(() => from);
        if (to !== from) return { from, to };
        if (Date.now() > until) throw new Error('no failover within 30 s');
        await new Promise((res) => setTimeout(res, 100));
      }
    },
    async kill(port) {
      const m = byPort(port);
      const c = m?.child;
      if (!c || c.exitCode !== null) return;
      const exited = new Promise((res) => c.once('exit', res));
      c.kill('SIGKILL');
      await exited;
    },
    async restart(port) {
      const m = byPort(port);
      if (!m) throw new Error(`no member on ${port}`);
      await launch(m, configs.get(port)!);
    },
    async stop() {
      await Promise.all(
        [...sentinels, ...members].map((m) => {
          const c = m.child;
          if (!c || c.exitCode !== null) return Promise.resolve();
          const exited = new Promise<void>((res) => c.once('exit', () => res()));
          c.kill('SIGKILL');
          return exited;
        }),
      );
      fs.rmSync(dir, { recursive: true, force: true });
    },
  };
}
