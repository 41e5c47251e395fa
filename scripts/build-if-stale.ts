/**
 * `npm start` runs this first: builds the client when dist/client is missing or older than any
 * source it is built from, so a fresh clone needs only `npm install && npm start`.
 */
import { spawnSync } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';

const root = path.resolve(import.meta.dirname, '..');
// The trader's page and the operator console's (built second, into the same folder).
const outputs = ['dist/client/index.html', 'dist/client/ops.html'].map((p) => path.join(root, p));
const configs = ['client/vite.config.ts', 'client/vite.ops.config.ts'];
const sources = [
  'client/src',
  'client/public',
  'client/index.html',
  'client/ops.html',
  ...configs,
  'shared/src',
  'package-lock.json',
];

function newestMtime(p: string): number {
  if (!fs.existsSync(p)) return 0;
  const stat = fs.statSync(p);
  if (!stat.isDirectory()) return stat.mtimeMs;
  return Math.max(0, ...fs.readdirSync(p).map((name) => newestMtime(path.join(p, name))));
}

const builtAt = Math.min(...outputs.map((o) => (fs.existsSync(o) ? fs.statSync(o).mtimeMs : 0)));
const sourceAt = Math.max(...sources.map((s) => newestMtime(path.join(root, s))));
if (builtAt >= sourceAt) {
  console.log('client build is up to date');
} else {
  console.log(
    builtAt
      ? 'client sources changed: rebuilding the client…'
      : 'building the client (first start)…',
  );
  // In order: the trader's build empties dist/client, the console's adds to it.
  for (const config of configs) {
    const res = spawnSync(
      process.execPath,
      [
        path.join(root, 'node_modules/vite/bin/vite.js'),
        'build',
        '--config',
        config,
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
  }
  console.log('client built');
}
