import pg from 'pg';
import { Redis } from 'ioredis';
import { spawnSync } from 'node:child_process';
import path from 'node:path';
import { ensurePgliteTemplate } from './pglite-template';
import { detectTiers, requireServices } from './tiers';

/**
 * Runs once before the suite: prints which tiers run and which are left out and why; fails the
 * run when a configured service does not answer, or when REQUIRE_SERVICES=1 and a tier is off.
 */
export default async function setup() {
  const tiers = Object.values(detectTiers());
  const lines = tiers.map((t) => `  ${t.on ? 'runs     ' : 'LEFT OUT '} ${t.name}: ${t.why}`);
  console.log(`\nTest tiers (embedded PGlite + in-process bus always run):\n${lines.join('\n')}\n`);

  const off = tiers.filter((t) => !t.on);
  if (requireServices() && off.length) {
    throw new Error(
      `REQUIRE_SERVICES=1 but these tiers are off: ${off.map((t) => `${t.name} (${t.why})`).join('; ')}`,
    );
  }
  // Browser journeys and process tests serve the built client: build it when missing or stale.
  const build = spawnSync(
    process.execPath,
    ['--import', 'tsx', path.join(import.meta.dirname, '../../scripts/build-if-stale.ts')],
    { stdio: 'inherit' },
  );
  if (build.status !== 0) throw new Error('building the client failed');
  // The migrated PGlite every test database and embedded app starts from, made once.
  await ensurePgliteTemplate();

  const { DATABASE_URL, REDIS_URL } = process.env;
  if (DATABASE_URL) {
    const client = new pg.Client({ connectionString: DATABASE_URL, connectionTimeoutMillis: 3000 });
    try {
      await client.connect();
      await client.query('SELECT 1');
    } catch (err) {
      throw new Error(
        `DATABASE_URL is set but PostgreSQL does not answer: ${(err as Error).message}`,
      );
    } finally {
      await client.end().catch(() => undefined);
    }
  }
  if (REDIS_URL) {
    const redis = new Redis(REDIS_URL, {
      lazyConnect: true,
      maxRetriesPerRequest: 0,
      retryStrategy: () => null,
    });
    redis.on('error', () => undefined);
    try {
      await redis.connect();
      await redis.ping();
    } catch (err) {
      throw new Error(`REDIS_URL is set but Redis does not answer: ${(err as Error).message}`);
    } finally {
      redis.disconnect();
    }
  }
}
