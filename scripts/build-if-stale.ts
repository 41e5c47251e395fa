/**
 * `npm start` runs this first: builds the client when dist/client is missing or older than any
 * source it is built from, so a fresh clone needs only `npm install && npm start`.
 */
import { spawnSync } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';

const root = path.resolve(import.meta.dirname, '..');
const output = path.join(root, 'dist/client/index.html');
const sources = [
  'client/src',
  'client/public',
  'client/index.html',
  'client/vite.config.ts',
  'shared/src',
  'package-lock.json',
];

function newestMtime(p: string): number {
  if (!fs.existsSync(p)) return 0;
  const stat = fs.statSync(p);
  if (!stat.isDirectory()) return stat.mtimeMs;
  return Math.max(0, ...fs.readdirSync(p).map((name) => newestMtime(path.join(p, name))));
}

const builtAt = fs.existsSync(output) ? fs.statSync(output).mtimeMs : 0;
const sourceAt = Math.max(...sources.map((s) => newestMtime(path.join(root, s))));
if (builtAt >= sourceAt) {
  console.log('client build is up to date');
} else {
  console.log(
    builtAt
      ? 'client sources changed: rebuilding the client…'
      : 'building the client (first start)…',
  );
  const res = spawnSync(
    process.execPath,
    [
      path.join(root, 'node_modules/vite/bin/vite.js'),
      'build',
      '--config',
      'client/vite.config.ts',
      '--logLevel',
      'warn',
    ],
    {
      cwd: root,
      stdio: 'inherit',
      // Always the production build: vitest sets NODE_ENV=test, and Vite honours an inherited
      // NODE_ENV, which would serve React's development build (StrictMode effects run twice).
      env: { ...process.env, NODE_ENV: 'production' },
    },
  );
  if (res.status !== 0) process.exit(res.status ?? 1);
  console.log('client built');
}
