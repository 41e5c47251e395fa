import { fork } from 'node:child_process';
import path from 'node:path';
import type { ProcessRun, RunShare } from './runner';
import type { Scenario } from './scenario';

/**
 * `--processes N`: the plan split over N local processes (one event loop each), each a child
 * running its share (every N-th slot, N-th of the traders); their results come back over IPC and
 * merge like the documents of several hosts. The first child also reads the server's metrics.
 */

type ToChild = {
  scenario: Scenario;
  index: number;
  of: number;
  embedded: boolean;
  operatorToken?: string;
};
type FromChild =
  | { type: 'progress'; line: string }
  | { type: 'done'; run: ProcessRun }
  | { type: 'error'; message: string };

const entry = path.join(import.meta.dirname, 'processes.ts');

export async function runInProcesses(
  scenario: Scenario,
  n: number,
  opts: {
    progress: (line: string) => void;
    signal?: AbortSignal;
    embedded?: boolean;
    operatorToken?: string;
  },
): Promise<ProcessRun[]> {
  return Promise.all(
    Array.from(
      { length: n },
      (_, index) =>
        new Promise<ProcessRun>((resolve, reject) => {
          const child = fork(entry, [], {
            execArgv: ['--import', 'tsx'],
            env: { ...process.env, LOAD_CHILD: '1' },
            stdio: ['ignore', 'inherit', 'inherit', 'ipc'],
          });
          const abort = () => child.kill('SIGINT');
          opts.signal?.addEventListener('abort', abort);
          child.on('message', (m: FromChild) => {
            if (m.type === 'progress') opts.progress(`[${index}] ${m.line}`);
            else if (m.type === 'done') resolve(m.run);
            else reject(new Error(`process ${index}: ${m.message}`));
          });
          child.once('exit', (code) => {
            opts.signal?.removeEventListener('abort', abort);
            reject(new Error(`process ${index} exited with ${code} before reporting`));
          });
          // The token goes over IPC, never as an argument (`ps` shows those).
          const msg: ToChild = {
            scenario,
            index,
            of: n,
            embedded: !!opts.embedded,
            ...(opts.operatorToken ? { operatorToken: opts.operatorToken } : {}),
          };
          child.send(msg);
        }),
    ),
  );
}

// The child: runs its share once the parent has sent it, then exits.
if (process.env.LOAD_CHILD === '1' && process.send) {
  const { runShare } = await import('./runner');
  const abort = new AbortController();
  process.once('SIGINT', () => abort.abort());
  process.once('message', (m: ToChild) => {
    const share: RunShare = {
      index: m.index,
      of: m.of,
      scrape: m.index === 0,
      embedded: m.embedded,
      ...(m.operatorToken ? { operatorToken: m.operatorToken } : {}),
      signal: abort.signal,
      progress: (line) => process.send!({ type: 'progress', line } satisfies FromChild),
    };
    runShare(m.scenario, share).then(
      (run) => process.send!({ type: 'done', run } satisfies FromChild, () => process.exit(0)),
      (err: unknown) =>
        process.send!({ type: 'error', message: (err as Error).message } satisfies FromChild, () =>
          process.exit(1),
        ),
    );
  });
}
