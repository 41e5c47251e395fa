import { execFile, spawn, type ChildProcess } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { promisify } from 'node:util';
import pg from 'pg';
import { freePort } from './redis-server';

const run = promisify(execFile);

/** Debian's PostgreSQL binaries (the `postgresql` package .ci/run installs). */
export function pgBinDir(): string | null {
  const root = '/usr/lib/postgresql';
  if (!fs.existsSync(root)) return null;
  const versions = fs.readdirSync(root).sort((a, b) => Number(b) - Number(a));
  for (const v of versions)
    if (fs.existsSync(path.join(root, v, 'bin', 'pg_ctl'))) return path.join(root, v, 'bin');
  return null;
}

/** PostgreSQL refuses to run as root: its tools run as the `postgres` user when we are root. */
const asPostgres = (bin: string, args: string[]) =>
  process.getuid?.() === 0 ? ['runuser', ['-u', 'postgres', '--', bin, ...args]] : [bin, args];

interface Node {
  name: string;
  port: number;
  dataDir: string;
  child: ChildProcess | null;
}

/**
 * A private PostgreSQL primary with one streaming replica, for the chaos tests: started from
 * `initdb`, the replica from `pg_basebackup -R`, both on free ports on 127.0.0.1 with trust auth.
 * `promote()` promotes the replica (after the test has stopped or partitioned the primary).
 */
export interface PgCluster {
  primary: Node;
  replica: Node;
  /** A libpq-style URL naming both hosts (`target_session_attrs=read-write`), database `trade`. */
  url: string;
  /** The same URL for the given host ports (the test's fault proxies in front of them). */
  urlFor(ports: number[]): string;
  /** SIGKILL: a crash of the whole server; SIGINT: a fast shutdown. */
  kill(node: Node, signal?: 'SIGKILL' | 'SIGINT'): Promise<void>;
  promote(): Promise<void>;
  /** Whether a node accepts writes (not in recovery). */
  writable(node: Node): Promise<boolean>;
  stop(): Promise<void>;
}

export async function startPgCluster(): Promise<PgCluster> {
  const bin = pgBinDir();
  if (!bin) throw new Error('no PostgreSQL binaries under /usr/lib/postgresql');
  const root = fs.mkdtempSync(path.join(os.tmpdir(), 'pgcluster-'));
  fs.chmodSync(root, 0o777);
  const tool = async (name: string, args: string[]) => {
    const [cmd, argv] = asPostgres(path.join(bin, name), args) as [string, string[]];
    return run(cmd, argv, { timeout: 120_000 });
  };
  const node = async (name: string): Promise<Node> => ({
    name,
    port: await freePort(),
    dataDir: path.join(root, name),
    child: null,
  });
  const primary = await node('primary');
  const replica = await node('replica');
  const sockets = path.join(root, 'sockets');
  fs.mkdirSync(sockets, { mode: 0o777 });
  fs.chmodSync(sockets, 0o777);

  const start = async (n: Node) => {
    const [cmd, argv] = asPostgres(path.join(bin, 'postgres'), [
      '-D',
      n.dataDir,
      '-p',
      String(n.port),
      '-c',
      'listen_addresses=127.0.0.1',
      '-c',
      `unix_socket_directories=${sockets}`,
      '-c',
      'fsync=off',
    ]) as [string, string[]];
    n.child = spawn(cmd, argv, { stdio: 'ignore' });
    const deadline = Date.now() + 60_000;
    for (;;) {
      const c = new pg.Client({
        host: '127.0.0.1',
        port: n.port,
        user: 'postgres',
        database: 'postgres',
      });
      try {
        await c.connect();
        await c.end();
        return;
      } catch {
        await c.end().catch(() => undefined);
        if (Date.now() > deadline) throw new Error(`postgres ${n.name} did not start`);
        await new Promise((r) => setTimeout(r, 100));
      }
    }
  };

  await tool('initdb', [
    '-D',
    primary.dataDir,
    '-U',
    'postgres',
    '--auth=trust',
    '-E',
    'UTF8',
    '--no-sync',
  ]);
  fs.appendFileSync(
    path.join(primary.dataDir, 'postgresql.conf'),
    'wal_level = replica\nmax_wal_senders = 5\nhot_standby = on\nwal_keep_size = 256MB\n',
  );
  fs.appendFileSync(
    path.join(primary.dataDir, 'pg_hba.conf'),
    'host replication all 127.0.0.1/32 trust\nhost all all 127.0.0.1/32 trust\n',
  );
  await start(primary);
  const admin = new pg.Client({
    host: '127.0.0.1',
    port: primary.port,
    user: 'postgres',
    database: 'postgres',
  });
  await admin.connect();
  await admin.query('CREATE DATABASE trade');
  await admin.end();
  await tool('pg_basebackup', [
    '-h',
    '127.0.0.1',
    '-p',
    String(primary.port),
    '-U',
    'postgres',
    '-D',
    replica.dataDir,
    '-R',
    '-X',
    'stream',
    '--no-sync',
    '--checkpoint=fast',
  ]);
  await start(replica);

  const urlFor = (ports: number[]) =>
    `postgres://postgres@${ports.map((p) => `127.0.0.1:${p}`).join(',')}/trade?target_session_attrs=read-write`;
  /** The postmaster's pid, from its pid file (null when it is not running). */
  const postmasterPid = (n: Node): number | null => {
    try {
      const pid = Number(
        fs.readFileSync(path.join(n.dataDir, 'postmaster.pid'), 'utf8').split('\n')[0],
      );
      process.kill(pid, 0);
      return pid;
    } catch {
      return null;
    }
  };
  /** A crash (SIGKILL of the postmaster and its children) or a fast shutdown (SIGINT). */
  const kill = async (n: Node, signal: 'SIGKILL' | 'SIGINT' = 'SIGKILL') => {
    const pid = postmasterPid(n);
    if (pid === null) return;
    if (signal === 'SIGKILL') await run('pkill', ['-9', '-P', String(pid)]).catch(() => undefined);
    process.kill(pid, signal);
    const deadline = Date.now() + 30_000;
    while (postmasterPid(n) !== null && Date.now() < deadline)
      await new Promise((r) => setTimeout(r, 50));
    if (signal === 'SIGKILL') await run('pkill', ['-9', '-P', String(pid)]).catch(() => undefined);
  };
  return {
    primary,
    replica,
    url: urlFor([primary.port, replica.port]),
    urlFor,
    kill,
    async promote() {
      await tool('pg_ctl', ['promote', '-w', '-D', replica.dataDir]);
    },
    async writable(n) {
      const c = new pg.Client({
        host: '127.0.0.1',
        port: n.port,
        user: 'postgres',
        database: 'trade',
      });
      try {
        await c.connect();
        const { rows } = await c.query<{ r: boolean }>('SELECT pg_is_in_recovery() AS r');
        return !rows[0]!.r;
      } catch {
        return false;
      } finally {
        await c.end().catch(() => undefined);
      }
    },
    async stop() {
      await kill(replica, 'SIGINT').catch(() => undefined);
      await kill(primary, 'SIGINT').catch(() => undefined);
      fs.rmSync(root, { recursive: true, force: true });
    },
  };
}
