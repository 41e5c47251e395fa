import { execFile } from 'node:child_process';
import path from 'node:path';
import { promisify } from 'node:util';
import type { AppUnderTest } from './browser';
import { repoRoot } from './processes';

const run = promisify(execFile);

/**
 * `npm run ops -- …args` against an app a browser journey started: the CLI finds the app by its
 * DATA_DIR (the generated operator token) and PORT, as an operator on that machine would.
 * Rejects when the CLI exits non-zero; `stderr` is what it wrote besides its answer.
 */
export function runOps(app: Pick<AppUnderTest, 'dataDir' | 'port'>, ...args: string[]) {
  return run(path.join(repoRoot, 'node_modules/.bin/tsx'), ['scripts/ops.ts', ...args], {
    cwd: repoRoot,
    env: {
      ...process.env,
      DATA_DIR: app.dataDir,
      PORT: String(app.port),
      OPERATOR_TOKEN: '',
      OPS_URL: '',
    },
  });
}

/** `runOps`, its JSON answer parsed. */
export async function opsJson<T = unknown>(
  app: Pick<AppUnderTest, 'dataDir' | 'port'>,
  ...args: string[]
): Promise<T> {
  return JSON.parse((await runOps(app, ...args)).stdout) as T;
}
