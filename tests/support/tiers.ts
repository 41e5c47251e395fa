import fs from 'node:fs';
import { execFileSync } from 'node:child_process';

/**
 * Test tiers that need something beyond Node. Each is on when its service is configured (or its
 * binary is installed); a tier that is off is left out of the run and named in the summary.
 * With REQUIRE_SERVICES=1 (CI) a missing tier is an error, never a skip.
 */
export interface Tier {
  name: string;
  on: boolean;
  why: string;
}

const hasBinary = (name: string) => {
  try {
    execFileSync('sh', ['-c', `command -v ${name}`], { stdio: 'ignore' });
    return true;
  } catch {
    return false;
  }
};

export const chromiumPath = process.env.CHROMIUM_PATH ?? '/usr/bin/chromium';
export const nginxPath = process.env.NGINX_PATH ?? '/usr/sbin/nginx';

export function detectTiers(env: NodeJS.ProcessEnv = process.env) {
  const postgres: Tier = {
    name: 'postgres',
    on: !!env.DATABASE_URL,
    why: env.DATABASE_URL ? `DATABASE_URL=${env.DATABASE_URL}` : 'DATABASE_URL is not set',
  };
  const redis: Tier = {
    name: 'redis',
    on: !!env.REDIS_URL,
    why: env.REDIS_URL ? `REDIS_URL=${env.REDIS_URL}` : 'REDIS_URL is not set',
  };
  const redisServer: Tier = {
    name: 'redis-server (private instances for restart tests)',
    on: hasBinary('redis-server'),
    why: hasBinary('redis-server') ? 'redis-server found' : 'redis-server is not installed',
  };
  const browser: Tier = {
    name: 'browser (Playwright + Chromium)',
    on: fs.existsSync(chromiumPath),
    why: fs.existsSync(chromiumPath)
      ? chromiumPath
      : `${chromiumPath} is missing (apt-get install chromium)`,
  };
  const cluster: Tier = {
    name: 'cluster (multi-process on PostgreSQL + Redis)',
    on: postgres.on && redis.on && redisServer.on,
    why:
      postgres.on && redis.on && redisServer.on
        ? 'PostgreSQL and Redis configured'
        : 'needs DATABASE_URL, REDIS_URL and redis-server',
  };
  const nginx: Tier = {
    name: 'nginx (deploy/nginx.conf, the balancer)',
    on: fs.existsSync(nginxPath),
    why: fs.existsSync(nginxPath)
      ? nginxPath
      : `${nginxPath} is missing (apt-get install nginx-light)`,
  };
  return { postgres, redis, redisServer, browser, cluster, nginx };
}

export const requireServices = () => process.env.REQUIRE_SERVICES === '1';
