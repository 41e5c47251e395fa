import { fork, type ChildProcess } from 'node:child_process';
import path from 'node:path';
import type { FromChild, ProcessSample, ToChild } from './ipc';

export const repoRoot = path.resolve(import.meta.dirname, '../../..');

type Request =
  | { type: 'sample'; gc: boolean }
  | Omit<Extract<ToChild, { type: 'publish' }>, 'id'>
  | { type: 'halt' }
  | { type: 'count' }
  | Omit<Extract<ToChild, { type: 'profile' }>, 'id'>;
type Reply<R extends Request> = R extends { type: 'sample' }
  ? ProcessSample
  : R extends { type: 'halt' } | { type: 'count' }
    ? { ticks: number; snapshots: number }
    : null;

/** A child process of the benchmark (a server or the publisher), driven over IPC. */
export class Child {
  private readonly proc: ChildProcess;
  private output = '';
  private nextId = 1;
  private readonly pending = new Map<
    number,
    { resolve: (m: FromChild) => void; reject: (e: Error) => void }
  >();
  private readyWaiters: (() => void)[] = [];
  private isReady = false;
  exit: string | null = null;
  private readonly exited: Promise<void>;

  constructor(
    readonly name: string,
    script: string,
    env: Record<string, string>,
  ) {
    // --expose-gc: the heap figure is read after a full collection in the child itself.
    const execArgv = ['--expose-gc', '--import', 'tsx'];
    this.proc = fork(path.resolve(repoRoot, script), [], {
      cwd: repoRoot,
      execArgv,
      env: { ...process.env, ...env },
      stdio: ['ignore', 'pipe', 'pipe', 'ipc'],
    });
    const keep = (b: Buffer) => (this.output = (this.output + b.toString()).slice(-6000));
    this.proc.stdout?.on('data', keep);
    this.proc.stderr?.on('data', keep);
    this.proc.on('message', (raw) => this.onMessage(raw as FromChild));
    this.exited = new Promise((resolve) =>
      this.proc.once('exit', (code, signal) => {
        this.exit = String(code ?? signal);
        const err = new Error(
          `${this.name} exited (${this.exit}); its last output:\n${this.output}`,
        );
        for (const p of this.pending.values()) p.reject(err);
        this.pending.clear();
        resolve();
      }),
    );
  }

  get pid(): number | undefined {
    return this.proc.pid;
  }

  private onMessage(m: FromChild): void {
    if (m.type === 'ready') {
      this.isReady = true;
      for (const w of this.readyWaiters) w();
      this.readyWaiters = [];
      return;
    }
    if (!('id' in m) || m.id === undefined) return;
    const p = this.pending.get(m.id);
    if (!p) return;
    this.pending.delete(m.id);
    if (m.type === 'error') p.reject(new Error(`${this.name}: ${m.message}`));
    else p.resolve(m);
  }

  async ready(timeoutMs: number): Promise<void> {
    if (this.isReady) return;
    let timer: NodeJS.Timeout | undefined;
    try {
      await Promise.race([
        new Promise<void>((resolve) => this.readyWaiters.push(resolve)),
        this.exited.then(() => {
          throw new Error(`${this.name} exited before ready (${this.exit}):\n${this.output}`);
        }),
        new Promise((_, reject) => {
          timer = setTimeout(
            () => reject(new Error(`${this.name} not ready in ${timeoutMs} ms:\n${this.output}`)),
            timeoutMs,
          );
        }),
      ]);
    } finally {
      clearTimeout(timer);
    }
  }

  request<R extends Request>(req: R, timeoutMs = 15_000): Promise<Reply<R>> {
    if (this.exit !== null)
      return Promise.reject(new Error(`${this.name} has exited (${this.exit}):\n${this.output}`));
    const id = this.nextId++;
    return new Promise<Reply<R>>((resolve, reject) => {
      const timer = setTimeout(() => {
        this.pending.delete(id);
        reject(new Error(`${this.name} did not answer ${req.type} in ${timeoutMs} ms`));
      }, timeoutMs);
      this.pending.set(id, {
        resolve: (m) => {
          clearTimeout(timer);
          if (m.type === 'sample') {
            const { cpuUs, systemUs, heapUsed, rss, external } = m;
            resolve({ cpuUs, systemUs, heapUsed, rss, external } as Reply<R>);
          } else if (m.type === 'halted' || m.type === 'counted')
            resolve({ ticks: m.ticks, snapshots: m.snapshots } as Reply<R>);
          else resolve(null as Reply<R>);
        },
        reject: (e) => {
          clearTimeout(timer);
          reject(e);
        },
      });
      this.proc.send({ ...req, id });
    });
  }

  sample(gc = false): Promise<ProcessSample> {
    return this.request({ type: 'sample', gc });
  }

  /** SIGTERM, then SIGKILL after `graceMs`; resolves once the process is gone. */
  async stop(graceMs = 10_000): Promise<void> {
    if (this.exit !== null) return;
    this.proc.kill('SIGTERM');
    const timer = setTimeout(() => this.proc.kill('SIGKILL'), graceMs);
    await this.exited;
    clearTimeout(timer);
  }
}
