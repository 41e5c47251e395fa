/**
 * Compiles the server roles and CLIs into plain JavaScript (`dist/server/<name>.js`), which
 * production runs with `node` directly: no tsx, no npm in between, so signals reach the server.
 * esbuild bundles our own modules (resolving the `@server/…` aliases from tsconfig) and leaves
 * every package in node_modules external. The SQL migrations and the seeded content, which the
 * server reads beside its own module, are copied next to the bundles.
 *
 *   tsx scripts/build-server.ts [--outdir dist/server]
 */
import fs from 'node:fs';
import path from 'node:path';
import { parseArgs } from 'node:util';
import { build } from 'esbuild';

const root = path.resolve(import.meta.dirname, '..');
const { values } = parseArgs({ options: { outdir: { type: 'string' } } });
const outdir = path.resolve(values.outdir ?? path.join(root, 'dist/server'));

export const entries: Record<string, string> = {
  all: 'server/src/main/all.ts',
  // The embedded app's threads, beside all.js (server/src/main/embedded-threads.ts finds them).
  'db-thread': 'server/src/main/db-thread.ts',
  'sim-thread': 'server/src/main/sim-thread.ts',
  api: 'server/src/main/api.ts',
  sim: 'server/src/main/sim.ts',
  gateway: 'server/src/main/gateway.ts',
  worker: 'server/src/main/worker.ts',
  watcher: 'server/src/main/watcher.ts',
  ops: 'scripts/ops.ts',
  'verify-tape': 'scripts/verify-tape.ts',
  'scrub-uploads': 'scripts/scrub-uploads.ts',
};

fs.rmSync(outdir, { recursive: true, force: true });
const started = Date.now();
await build({
  absWorkingDir: root,
  entryPoints: Object.fromEntries(
    Object.entries(entries).map(([name, file]) => [name, path.join(root, file)]),
  ),
  outdir,
  bundle: true,
  platform: 'node',
  target: 'node20',
  format: 'esm',
  packages: 'external',
  sourcemap: true,
  tsconfig: path.join(root, 'tsconfig.json'),
  logLevel: 'warning',
  // The bundles are ES modules; a package that still calls require() finds it.
  banner: {
    js: "import { createRequire as __cr } from 'node:module'; const require = __cr(import.meta.url);",
  },
});
const besides: [string, string][] = [
  ['infra/src/db/migrations', 'migrations'],
  ['server/src/modules/content/seed', 'seed'],
];
for (const [from, to] of besides)
  fs.cpSync(path.join(root, from), path.join(outdir, to), { recursive: true });
console.log(
  `server built in ${Date.now() - started} ms: ${Object.keys(entries)
    .map((n) => `${path.relative(root, outdir)}/${n}.js`)
    .join(', ')}`,
);
