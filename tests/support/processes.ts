import { execFile, spawn, type ChildProcess } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';
import { freePort } from './redis-server';

export const repoRoot = path.resolve(import.meta.dirname, '../..');

export interface RunningProcess {
  child: ChildProcess;
  output: () => string;
  /** Resolves with the exit code (or the signal name). */
  exited: Promise<number | string>;
  stop(signal?: NodeJS.Signals): Promise<number | string>;
}

/**
 * Starts one of the entry points (`server/src/main/*.ts`) as a child process with extra env (and
 * extra options for node, `--cpu-prof` say, which NODE_OPTIONS does not take).
 */
export function startEntry(
  entry: string,
  env: Record<string, string>,
  nodeOptions: string[] = [],
): RunningProcess {
  // `node --import tsx`, not the tsx CLI: the CLI runs the app in a second process, so a SIGKILL
  // would hit only the wrapper and leave the server running.
  const args = [...nodeOptions, '--import', 'tsx', path.join(repoRoot, entry)];
  const child = spawn(process.execPath, args, {
    cwd: repoRoot,
    // Journeys bind a withdrawal account and withdraw at once: no new-account hold unless a test
    // of the hold asks for one.
    env: { ...process.env, LOG_LEVEL: 'info', WITHDRAWAL_ACCOUNT_HOLD_HOURS: '0', ...env },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let out = '';
  child.stdout.on('data', (d: Buffer) => (out += d.toString()));
  child.stderr.on('data', (d: Buffer) => (out += d.toString()));
  let stopping = false;
  const exited = new Promise<number | string>((resolve) =>
    child.once('exit', (code, signal) => {
      // A process that ends unasked is a failure of the test that follows: say why, in the log.
      if (!stopping)
        process.stderr.write(
          `${entry} (pid ${child.pid}) exited unasked (${code ?? signal}); its last output:\n` +
            `${out.slice(-4_000)}\n`,
        );
      resolve(code ?? signal ?? -1);
    }),
  );
  return {
    child,
    output: () => out,
    exited,
    async stop(signal = 'SIGTERM') {
      stopping = true;
      if (child.exitCode === null && child.signalCode === null) child.kill(signal);
      return exited;
    },
  };
}

/**
 * Whether process `pid` holds the TCP socket listening on `port` (Linux's /proc): a port a test
 * chose free can be taken by another process before its server binds it, and then a ready answer
 * on that port is the other process's.
 */
export function holdsListener(pid: number, port: number): boolean {
  const inodes = new Set<string>();
  for (const fd of fs.readdirSync(`/proc/${pid}/fd`)) {
    const link = safely(() => fs.readlinkSync(`/proc/${pid}/fd/${fd}`));
    const inode = /^socket:\[(\d+)\]$/.exec(link ?? '')?.[1];
    if (inode) inodes.add(inode);
  }
  const local = `:${port.toString(16).toUpperCase().padStart(4, '0')}`;
  return ['/proc/net/tcp', '/proc/net/tcp6'].some((table) =>
    (safely(() => fs.readFileSync(table, 'utf8')) ?? '')
      .split('\n')
      .slice(1)
      .map((line) => line.trim().split(/\s+/))
      // sl, local address, remote address, state (0A is LISTEN), …, inode (the tenth column).
      .some((f) => f[1]?.endsWith(local) && f[3] === '0A' && inodes.has(f[9] ?? '')),
  );
}

function safely<T>(read: () => T): T | undefined {
  try {
    return read();
  } catch {
    return undefined;
  }
}

/** Polls `url` until it answers `status`, or fails after `ms`. */
export async function waitForHttp(url: string, status = 200, ms = 30_000): Promise<Response> {
  const deadline = Date.now() + ms;
  let last = '';
  for (;;) {
    try {
      const res = await fetch(url);
      if (res.status === status) return res;
      last = `status ${res.status}`;
    } catch (err) {
      last = (err as Error).message;
    }
    if (Date.now() > deadline)
      throw new Error(`${url} did not answer ${status} in ${ms} ms (${last})`);
    await new Promise((r) => setTimeout(r, 100));
  }
}

/**
 * Runs a repository script (`scripts/…`) with tsx, asynchronously: a test that serves the API the
 * script reads must keep its event loop free. Answers its output and exit status, never throws.
 */
export function runScript(
  args: string[],
  timeout = 120_000,
): Promise<{ stdout: string; stderr: string; status: number | null }> {
  return new Promise((resolve) =>
    execFile(
      process.execPath,
      ['--import', 'tsx', ...args],
      { cwd: repoRoot, encoding: 'utf8', timeout },
      (err, stdout, stderr) =>
        resolve({ stdout, stderr, status: err ? ((err as { code?: number }).code ?? null) : 0 }),
    ),
  );
}

/**
 * A simulator, an api and a worker as processes on `env`, each on a free port, once all three are
 * ready: the api's address, and the processes by role (into `procs`, so a failed start can still
 * be stopped by the caller's afterAll).
 */
export async function startSimApiWorker(
  env: Record<string, string>,
  procs: Record<string, RunningProcess>,
): Promise<{ apiUrl: string }> {
  const [simPort, apiPort, workerPort] = await Promise.all([freePort(), freePort(), freePort()]);
  procs.sim = startEntry('server/src/main/sim.ts', { ...env, PORT: String(simPort) });
  procs.api = startEntry('server/src/main/api.ts', { ...env, PORT: String(apiPort) });
  procs.worker = startEntry('server/src/main/worker.ts', { ...env, PORT: String(workerPort) });
  const apiUrl = `http://127.0.0.1:${apiPort}`;
  await Promise.all([
    waitForHttp(`http://127.0.0.1:${simPort}/readyz`, 200, 120_000),
    waitForHttp(`${apiUrl}/readyz`, 200, 120_000),
    waitForHttp(`http://127.0.0.1:${workerPort}/readyz`, 200, 120_000),
  ]);
  return { apiUrl };
}
