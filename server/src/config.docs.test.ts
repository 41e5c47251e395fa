import fs from 'node:fs';
import { describe, expect, it } from 'vitest';
import { configSchema } from './config';

const read = (p: string) => fs.readFileSync(new URL(`../../${p}`, import.meta.url), 'utf8');
const keys = Object.keys(configSchema.shape);

describe('configuration is documented where operators look', () => {
  it.each(['docs/OPERATIONS.md', 'README.md'])('%s lists every variable', (file) => {
    const text = read(file);
    const missing = keys.filter((k) => !text.includes(`\`${k}\``));
    expect(missing).toEqual([]);
  });

  it('docker-compose.yml sets no variable the config does not know', () => {
    const compose = read('docker-compose.yml');
    const set = [...compose.matchAll(/^\s{4}([A-Z][A-Z0-9_]+):/gm)].map((m) => m[1]!);
    const known = new Set([...keys, 'POSTGRES_USER', 'POSTGRES_PASSWORD', 'POSTGRES_DB']);
    expect(set.filter((k) => !known.has(k))).toEqual([]);
    expect(set).toEqual(
      expect.arrayContaining(['DATABASE_URL', 'REDIS_URL', 'OPERATOR_TOKEN', 'API_URL']),
    );
  });
});
