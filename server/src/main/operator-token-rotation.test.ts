import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import pino from 'pino';
import request from 'supertest';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ConfigError, loadConfig } from '@server/config';
import { startApi } from './api-role';
import { createMemoryBus, createMemoryHub } from '@infra/bus/memory';
import { openTestDb, type TestDb } from '@tests/support/db';

const OLD = 'old-operator-token-0123456789';
const NEW = 'new-operator-token-9876543210';

/**
 * Rotating the operator token without refusals: an api given OPERATOR_TOKEN (the new one) and
 * OPERATOR_TOKEN_PREVIOUS (the old one) accepts both, so operators and jobs can move from one to
 * the other while api processes restart one by one (docs/OPERATIONS.md, Operator-token rotation).
 */
describe('operator-token rotation', () => {
  let t: TestDb;
  const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'trade-rotation-'));
  const started: { close: () => Promise<void> }[] = [];

  beforeAll(async () => {
    t = await openTestDb('pglite');
  });
  afterAll(async () => {
    for (const api of started) await api.close();
    await t.drop();
    fs.rmSync(dataDir, { recursive: true, force: true });
  });

  /** An api process's app, started as `npm run start:api` starts it, on the shared database. */
  async function apiWith(env: Record<string, string>) {
    const config = loadConfig({ DATA_DIR: dataDir, SETTLEMENT_WORKER: 'off', ...env }, 'api');
    const api = await startApi(
      config,
      t.db,
      createMemoryBus(createMemoryHub()),
      pino({ level: 'silent' }),
    );
    started.push(api);
    return (token: string) =>
      request(api.app).get('/api/ops/ledger/check').set('authorization', `Bearer ${token}`);
  }

  it('accepts both tokens during the rotation, each alone before and after it', async () => {
    const before = await apiWith({ OPERATOR_TOKEN: OLD });
    const during = await apiWith({ OPERATOR_TOKEN: NEW, OPERATOR_TOKEN_PREVIOUS: OLD });
    const after = await apiWith({ OPERATOR_TOKEN: NEW });

    expect((await before(OLD)).status).toBe(200);
    expect((await before(NEW)).status).toBe(401);

    expect((await during(OLD)).status).toBe(200);
    expect((await during(NEW)).status).toBe(200);
    expect((await during('some-other-token-000000')).status).toBe(401);

    expect((await after(NEW)).status).toBe(200);
    expect((await after(OLD)).status).toBe(401);
  });

  it('takes OPERATOR_TOKEN_PREVIOUS only beside a different OPERATOR_TOKEN, and never prints it', () => {
    const problems = (env: Record<string, string>) => {
      try {
        loadConfig(env, 'api');
        return [];
      } catch (err) {
        expect(err).toBeInstanceOf(ConfigError);
        return (err as ConfigError).problems;
      }
    };
    expect(problems({ OPERATOR_TOKEN_PREVIOUS: OLD })).toEqual([
      'OPERATOR_TOKEN_PREVIOUS=(hidden): only with OPERATOR_TOKEN (the token replacing it)',
    ]);
    expect(problems({ OPERATOR_TOKEN: OLD, OPERATOR_TOKEN_PREVIOUS: OLD })).toEqual([
      'OPERATOR_TOKEN_PREVIOUS=(hidden): must differ from OPERATOR_TOKEN',
    ]);
    expect(problems({ OPERATOR_TOKEN: NEW, OPERATOR_TOKEN_PREVIOUS: 'short' })).toEqual([
      'OPERATOR_TOKEN_PREVIOUS=(hidden): must be at least 16 characters',
    ]);
  });
});
