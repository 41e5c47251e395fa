import fs from 'node:fs';
import { describe, expect, it } from 'vitest';
import { parse } from 'yaml';

/**
 * docker-compose.yml keeps no secret in the file: every password comes from the environment or
 * an env file (deploy/compose.env.example lists them all), and Redis requires one. CI also runs
 * `docker-compose config` with these variables set (.ci/run).
 */
const read = (p: string) => fs.readFileSync(new URL(`../../${p}`, import.meta.url), 'utf8');
const text = read('docker-compose.yml');
const compose = parse(text, { merge: true }) as {
  'x-app': { environment: Record<string, string> };
  services: Record<string, { environment?: Record<string, string>; command?: string[] }>;
};

describe('docker-compose.yml keeps its secrets out of the file', () => {
  const required = [...new Set([...text.matchAll(/\$\{([A-Z0-9_]+):\?/g)].map((m) => m[1]!))];

  it('takes the PostgreSQL, Redis and Grafana passwords from variables it requires', () => {
    expect(required).toEqual(
      expect.arrayContaining(['POSTGRES_PASSWORD', 'REDIS_PASSWORD', 'GRAFANA_ADMIN_PASSWORD']),
    );
    expect(compose.services.postgres?.environment?.POSTGRES_PASSWORD).toMatch(
      /^\$\{POSTGRES_PASSWORD:\?/,
    );
    const env = compose['x-app'].environment;
    expect(env.DATABASE_URL).toMatch(/^postgres:\/\/trade:\$\{POSTGRES_PASSWORD:\?[^}]*\}@/);
    expect(env.REDIS_URL).toMatch(/^redis:\/\/:\$\{REDIS_PASSWORD:\?[^}]*\}@redis:6379$/);
    expect(compose.services.redis?.command?.join(' ')).toContain('--requirepass');
    // No literal password anywhere: every *PASSWORD*, *TOKEN* or credential URL is a variable.
    for (const m of text.matchAll(/^\s*([A-Z_]*(PASSWORD|TOKEN|AUTH)[A-Z_]*):\s*(.+)$/gm))
      expect({ key: m[1], value: m[3] }).toEqual({
        key: m[1],
        value: expect.stringMatching(/^\$\{/),
      });
  });

  it('deploy/compose.env.example names every variable compose requires', () => {
    const example = read('deploy/compose.env.example');
    const listed = [...example.matchAll(/^([A-Z0-9_]+)=/gm)].map((m) => m[1]);
    expect(required.filter((k) => !listed.includes(k))).toEqual([]);
  });

  it('CI validates compose with every required variable set', () => {
    const ci = read('.ci/run');
    expect(required.filter((k) => !ci.includes(`${k}=`))).toEqual([]);
  });
});
