import { execFile, spawn, type ChildProcess } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import pg from 'pg';
import { holdsListener, repoRoot, startEntry, waitForHttp, type RunningProcess } from './processes';
import { stablePort, startPrivateRedis, type PrivateRedis } from './redis-server';
import { oneAddressSocketEnv } from './socket-limits';
import { nginxPath } from './tiers';

/**
 * docs/OPERATIONS.md's "A complete scaled example", read from the doc itself and run as written:
 * its common.env sourced by bash, its database created by its own commands, its processes started
 * in its order, its nginx configuration. Only addresses, ports, paths, names and secrets change.
 */

const doc = () => fs.readFileSync(path.join(repoRoot, 'docs/OPERATIONS.md'), 'utf8');

/** The example's section of the doc (so a code block elsewhere never matches). */
function exampleSection(): string {
  const text = doc();
  const from = text.indexOf('## A complete scaled example');
  const to = text.indexOf('\n## ', from + 1);
  if (from < 0) throw new Error('docs/OPERATIONS.md has no "A complete scaled example"');
  return text.slice(from, to);
}

/** The section's fenced blocks of `lang`, in order. */
function blocks(lang: string): string[] {
  return [...exampleSection().matchAll(new RegExp('```' + lang + '\\n([\\s\\S]*?)```', 'g'))].map(
    (m) => m[1]!,
  );
}

function blockWith(lang: string, marker: string): string {
  const found = blocks(lang).find((b) => b.includes(marker));
  if (!found) throw new Error(`no \`\`\`${lang} block with ${marker} in the scaled example`);
  return found;
}

/** /etc/trade/common.env as documented. */
export const documentedCommonEnv = () => blockWith('sh', 'NODE_ENV=');
/** The database commands as documented. */
export const documentedDatabaseSteps = () =>
  blockWith('sh', 'CREATE DATABASE')
    .split('\n')
    .filter((l) => l.trim() && !l.startsWith('#'));
/** The nginx configuration as documented. */
export const documentedNginxConf = () => blockWith('nginx', 'upstream api');

/** Each process line of the documented start-up: role and port, in the documented order. */
export function documentedProcesses(): { role: string; port: number }[] {
  return [
    ...blockWith('sh', 'set -a').matchAll(/^PORT=(\d+) .*node dist\/server\/(\w+)\.js/gm),
  ].map((m) => ({ role: m[2]!, port: Number(m[1]) }));
}

/** What `set -a; . file; set +a; env` gives for `file` (bash, as the doc says), as a record. */
export function sourceWithBash(file: string): Promise<Record<string, string>> {
  return new Promise((resolve, reject) =>
    execFile(
      'bash',
      ['--norc', '--noprofile', '-c', 'set -a; . "$1"; set +a; env -0', 'source', file],
      { env: { PATH: process.env.PATH }, encoding: 'utf8' },
      (err, stdout, stderr) => {
        if (err || stderr) return reject(new Error(`sourcing ${file}: ${stderr || err?.message}`));
        resolve(
          Object.fromEntries(
            stdout
              .split('\0')
              .filter(Boolean)
              .map((kv) => [kv.slice(0, kv.indexOf('=')), kv.slice(kv.indexOf('=') + 1)]),
          ),
        );
      },
    ),
  );
}

/** Runs one documented shell command line with bash. */
function runShell(line: string): Promise<string> {
  return new Promise((resolve, reject) =>
    execFile(
      'bash',
      ['--norc', '--noprofile', '-c', line],
      { encoding: 'utf8' },
      (err, stdout, stderr) => (err ? reject(new Error(`${line}: ${stderr}`)) : resolve(stdout)),
    ),
  );
}

/** One of the example's processes, restartable as the rolling-restart procedure does it. */
export interface ExampleProcess {
  role: string;
  port: number;
  current: RunningProcess;
  /** SIGTERM, wait for the exit (its code), start again, wait until /readyz answers 200. */
  restart(): Promise<number | string>;
}

export interface RunningExample {
  /** The balancer's address (the public side). */
  base: string;
  dir: string;
  common: Record<string, string>;
  processes: ExampleProcess[];
  nginx: ChildProcess;
  stop(): Promise<void>;
}

/** Waits until the process's /readyz answers 200; fails at once, with its output, if it exits. */
async function ready(p: ExampleProcess, ms: number): Promise<void> {
  const failed = (why: string) =>
    new Error(`${p.role} on ${p.port}: ${why}\n${p.current.output().slice(-3000)}`);
  await Promise.race([
    waitForHttp(`http://127.0.0.1:${p.port}/readyz`, 200, ms).catch((err: Error) => {
      throw failed(err.message);
    }),
    p.current.exited.then((code) => {
      throw failed(`exited (${code}) before it was ready`);
    }),
  ]);
  // A ready answer counts only from this process: another one listening on the port (an earlier
  // run's, or another test's) would otherwise be taken for it, and the balancer would send this
  // role's traffic there.
  if (!holdsListener(p.current.child.pid ?? 0, p.port))
    throw failed('another process answered ready on its port');
}

const pgAdmin = () => new URL(process.env.DATABASE_URL ?? 'postgres://postgres@127.0.0.1:5432');

/**
 * Starts the example: a fresh database and owner created by the documented commands (on the
 * PostgreSQL of DATABASE_URL), a private Redis, every documented process in its order (each once
 * the one before is ready), and nginx with the documented configuration. `extraEnv` is added to
 * the sourced common.env (quick-test settings the example does not have).
 */
export async function startExample(extraEnv: Record<string, string> = {}): Promise<RunningExample> {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'trade-ops-example-'));
  const name = `ex_${randomBytes(5).toString('hex')}`;
  const admin = pgAdmin();
  const procs: ExampleProcess[] = [];
  let redis: PrivateRedis | undefined;
  let nginx: ChildProcess | undefined;
  let created = false;

  const stop = async () => {
    if (nginx?.exitCode === null) {
      const exited = new Promise((r) => nginx!.once('exit', r));
      nginx.kill('SIGQUIT');
      await exited;
    }
    await Promise.all(procs.map((p) => p.current.stop('SIGTERM')));
    await redis?.kill();
    if (created) {
      const c = new pg.Client({ connectionString: admin.toString() });
      await c.connect();
      await c.query(`DROP DATABASE IF EXISTS ${name} WITH (FORCE)`);
      await c.query(`DROP USER IF EXISTS ${name}`);
      await c.end();
    }
    fs.rmSync(dir, { recursive: true, force: true });
  };

  try {
    // The database, by the documented commands: only its name, its owner's and the server change.
    for (const line of documentedDatabaseSteps()) {
      created = true;
      await runShell(
        line
          .replace(/\btrade\b/g, name)
          .replace('-h 127.0.0.1', `-h ${admin.hostname}`)
          .replace('-U postgres', `-U ${admin.username || 'postgres'} -p ${admin.port || 5432}`),
      );
    }
    redis = await startPrivateRedis();

    const documented = documentedProcesses();
    const ports = new Map<number, number>();
    for (const p of documented) ports.set(p.port, await stablePort());
    const lb = await stablePort();
    const base = `http://127.0.0.1:${lb}`;

    fs.writeFileSync(path.join(dir, 'common.env'), documentedCommonEnv());
    const sourced = await sourceWithBash(path.join(dir, 'common.env'));
    const names = [...documentedCommonEnv().matchAll(/^([A-Z][A-Z0-9_]*)=/gm)].map((m) => m[1]!);
    const db = new URL(sourced.DATABASE_URL!);
    db.username = name;
    db.pathname = `/${name}`;
    db.hostname = admin.hostname;
    db.port = admin.port || '5432';
    const common: Record<string, string> = {
      ...Object.fromEntries(names.map((n) => [n, sourced[n]!])),
      DATABASE_URL: db.toString(),
      REDIS_URL: redis.url,
      REDIS_NAMESPACE: name,
      OPERATOR_TOKEN: `ops-example-${randomBytes(8).toString('hex')}`,
      DATA_DIR: path.join(dir, 'data'),
      API_URL: base,
      ...oneAddressSocketEnv,
      ...extraEnv,
    };

    const start = (role: string, port: number) =>
      startEntry(`server/src/main/${role}.ts`, { ...common, PORT: String(port) });
    for (const { role, port: documentedPort } of documented) {
      const port = ports.get(documentedPort)!;
      const p: ExampleProcess = {
        role,
        port,
        current: start(role, port),
        async restart() {
          const code = await p.current.stop('SIGTERM');
          p.current = start(role, port);
          await ready(p, 60_000);
          return code;
        },
      };
      procs.push(p);
      await ready(p, 120_000);
    }

    let conf = documentedNginxConf();
    for (const [from, to] of ports)
      conf = conf.replaceAll(`server 127.0.0.1:${from} `, `server 127.0.0.1:${to} `);
    conf = conf
      .replace('listen 8080;', `listen 127.0.0.1:${lb};`)
      .replace('/var/log/nginx/trade.log', `${dir}/trade.log`)
      .replace(
        'http {',
        `http {\n  client_body_temp_path ${dir}/body;\n  proxy_temp_path ${dir}/proxy;`,
      );
    if (/server 127\.0\.0\.1:30\d\d |listen 8080|\/var\/log/.test(conf))
      throw new Error('an address of the documented nginx configuration was not replaced');
    fs.writeFileSync(path.join(dir, 'nginx.conf'), `pid ${dir}/nginx.pid;\n${conf}`);
    nginx = spawn(
      nginxPath,
      ['-p', dir, '-c', 'nginx.conf', '-e', `${dir}/error.log`, '-g', 'daemon off;'],
      { stdio: 'ignore' },
    );
    await waitForHttp(`${base}/readyz`);
    return { base, dir, common, processes: procs, nginx, stop };
  } catch (err) {
    await stop();
    throw err;
  }
}
