import os from 'node:os';
import { Worker } from 'node:worker_threads';
import { describe, expect, it } from 'vitest';
import { createLogger } from '@infra/logger';
import { favourThisThread, threadTaskId } from './startup';

/**
 * Runs the real `favourThisThread(boost)` on a thread of its own (from source through tsx's API,
 * as the embedded app starts its threads); its task id and the nice level it reports.
 */
function onAThread(boost: number): Promise<{ tid: number | null; nice: number | null }> {
  const startup = new URL('./startup.ts', import.meta.url).href;
  const logger = new URL('../../../infra/src/logger.ts', import.meta.url).href;
  const tsx = import.meta.resolve('tsx/esm/api');
  const code = `
    const { parentPort, workerData } = require('node:worker_threads');
    import(${JSON.stringify(tsx)}).then(async ({ tsImport }) => {
      const s = await tsImport(${JSON.stringify(startup)}, ${JSON.stringify(startup)});
      const l = await tsImport(${JSON.stringify(logger)}, ${JSON.stringify(logger)});
      const nice = s.favourThisThread(workerData.boost, l.createLogger('silent', 'all'));
      parentPort.postMessage({ tid: s.threadTaskId(), nice });
    });
  `;
  return new Promise((resolve, reject) => {
    const w = new Worker(code, { eval: true, workerData: { boost } });
    w.once('message', (m) => void w.terminate().then(() => resolve(m)));
    w.once('error', reject);
  });
}

describe('the feed thread runs ahead of its process', () => {
  const log = createLogger('silent', 'all');

  it("names the calling thread's own task, not the process", async () => {
    expect(threadTaskId()).toBe(process.pid); // the main thread's task id is the pid
    const { tid } = await onAThread(0);
    expect(tid).toBeGreaterThan(0);
    expect(tid).not.toBe(process.pid);
  });

  it('raises one thread alone when the process may (root here), and leaves the rest', async () => {
    const { tid, nice } = await onAThread(5);
    const processNice = os.getPriority(process.pid);
    if (process.getuid?.() === 0) expect(nice).toBe(Math.max(-20, processNice - 5));
    else expect(nice).toBe(processNice); // without CAP_SYS_NICE it keeps the process's level
    expect(tid).not.toBe(process.pid);
    expect(os.getPriority(process.pid)).toBe(processNice);
  });

  it('returns the level it leaves the calling thread at', () => {
    const before = os.getPriority(process.pid);
    const after = favourThisThread(0, log);
    expect(after).toBe(before);
  });
});
