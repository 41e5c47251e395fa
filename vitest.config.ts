import { defineConfig } from 'vitest/config';
import { aliases } from './aliases.ts';
import { detectTiers } from './tests/support/tiers.ts';

// Tiers that are off leave their files out of the run; global-setup prints which and why, and
// fails the run under REQUIRE_SERVICES=1 (CI), so nothing service-backed is silently skipped.
const tiers = detectTiers();
const exclude = ['**/node_modules/**', 'dist/**', 'data/**'];
if (!tiers.postgres.on) exclude.push('**/*.postgres.test.ts');
if (!tiers.redis.on) exclude.push('**/*.redis.test.ts');
if (!tiers.redisServer.on) exclude.push('**/*.redis-server.test.ts');
if (!tiers.browser.on) exclude.push('tests/e2e/**', 'tests/visual/**');
if (!tiers.cluster.on) exclude.push('tests/cluster/**');
if (!tiers.nginx.on) exclude.push('**/*.nginx.test.ts');
if (!tiers.promtool.on) exclude.push('**/*.promtool.test.ts');
if (!tiers.chaos.on) exclude.push('tests/chaos/**');
if (!tiers.geoip.on) exclude.push('**/*.geoip.test.ts');

export default defineConfig({
  resolve: { alias: aliases },
  test: {
    include: [
      '{infra,server,market-sim,shared,client}/src/**/*.test.{ts,tsx}',
      'tests/**/*.test.ts',
    ],
    exclude,
    globalSetup: ['./tests/support/global-setup.ts'],
    pool: 'forks',
    maxWorkers: 2,
    testTimeout: 90_000,
    hookTimeout: 60_000,
    // expect.poll waits for a condition; vitest's 1 s default is shorter than a page's first
    // answer on a loaded CI machine (the personal centre's balance once took longer). A poll that
    // needs a tighter limit says so.
    expect: { poll: { timeout: 15_000 } },
    env: { LOG_LEVEL: 'silent' },
  },
});
