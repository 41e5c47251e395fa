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

const hasPerlModule = (module: string) => {
  try {
    execFileSync('perl', [`-M${module}`, '-e', '1'], { stdio: 'ignore' });
    return true;
  } catch {
    return false;
  }
};

export const chromiumPath = process.env.CHROMIUM_PATH ?? '/usr/bin/chromium';
export const nginxPath = process.env.NGINX_PATH ?? '/usr/sbin/nginx';
export const promtoolPath = process.env.PROMTOOL_PATH ?? '/usr/bin/promtool';

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
  const promtool: Tier = {
    name: 'promtool (deploy/prometheus: the rules, their unit tests, the scrape config)',
    on: fs.existsSync(promtoolPath),
    why: fs.existsSync(promtoolPath)
      ? promtoolPath
      : `${promtoolPath} is missing (apt-get install prometheus)`,
  };
  // A GeoIP database written for the test (Debian's MaxMind::DB::Writer, the format's reference
  // writer): the security page's places come from a real .mmdb file.
  const geoip: Tier = {
    name: 'geoip (a MaxMind database written by MaxMind::DB::Writer, for session places)',
    on: hasPerlModule('MaxMind::DB::Writer::Tree'),
    why: hasPerlModule('MaxMind::DB::Writer::Tree')
      ? 'MaxMind::DB::Writer found'
      : 'MaxMind::DB::Writer is missing (apt-get install libmaxmind-db-writer-perl)',
  };
  const pgBin = fs.existsSync('/usr/lib/postgresql')
    ? fs
        .readdirSync('/usr/lib/postgresql')
        .some((v) => fs.existsSync(`/usr/lib/postgresql/${v}/bin/pg_ctl`))
    : false;
  const sentinel = hasBinary('redis-sentinel') || hasBinary('redis-server');
  const chaos: Tier = {
    name: 'chaos (PostgreSQL primary + replica, Redis under Sentinel, every role as processes)',
    on: pgBin && sentinel && hasBinary('runuser'),
    why:
      pgBin && sentinel
        ? 'PostgreSQL binaries and redis-server (sentinel mode) found'
        : 'needs /usr/lib/postgresql/*/bin (apt-get install postgresql) and redis-server / redis-sentinel',
  };
  return { postgres, redis, redisServer, browser, cluster, nginx, promtool, chaos, geoip };
}

export const requireServices = () => process.env.REQUIRE_SERVICES === '1';
