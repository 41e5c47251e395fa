import { spawn } from 'node:child_process';
import path from 'node:path';

const here = import.meta.dirname;
const repoRoot = path.resolve(here, '../..');

/** For the load tool's tests: runs one of tests/load's scripts as the npm scripts do. */
export function runTool(script: string, args: string[], env: Record<string, string> = {}) {
  return new Promise<{ code: number | null; out: string }>((resolve) => {
    const child = spawn(process.execPath, ['--import', 'tsx', path.join(here, script), ...args], {
      cwd: repoRoot,
      env: { ...process.env, ...env },
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    let out = '';
    child.stdout.on('data', (d: Buffer) => (out += d.toString()));
    child.stderr.on('data', (d: Buffer) => (out += d.toString()));
    child.once('exit', (code) => resolve({ code, out }));
  });
}
