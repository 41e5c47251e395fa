import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { startEntry, waitForHttp } from '@tests/support/processes';
import { freePort } from '@tests/support/redis-server';

/**
 * The entry points refuse a configuration that must not run, before they touch a database or a
 * port: exit code 78 and a message naming each variable, never echoing a secret.
 */
describe('entry points refuse a bad configuration', { timeout: 60_000 }, () => {
  const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'trade-config-'));
  afterAll(() => fs.rmSync(dataDir, { recursive: true, force: true }));

  // Nothing from the test runner's own environment may make a refusal pass or fail.
  const base = {
    DATA_DIR: dataDir,
    DATABASE_URL: '',
    REDIS_URL: '',
    OPERATOR_TOKEN: '',
    TEST_CLOCK: '',
    NODE_ENV: 'development',
  };
  const run = async (entry: string, env: Record<string, string>) => {
    const proc = startEntry(`server/src/main/${entry}.ts`, { ...base, ...env });
    const code = await proc.exited;
    return { code, output: proc.output() };
  };

  it('never prints the operator token nor a database or Redis password', async () => {
    const { code, output } = await run('api', {
      OPERATOR_TOKEN: 'sesame-short',
      DATABASE_URL: 'mysql://trade:db-pass-123@db:3306/trade',
      REDIS_URL: 'ftp://:redis-pass-456@cache:6379',
    });
    expect(code).toBe(78);
    expect(output).toContain('OPERATOR_TOKEN=(hidden): must be at least 16 characters');
    expect(output).toContain('DATABASE_URL="mysql://trade:***@db:3306/trade"');
    expect(output).toContain('REDIS_URL="ftp://:***@cache:6379"');
    expect(output).not.toMatch(/sesame|db-pass-123|redis-pass-456/);
  });

  it.each(['all', 'api', 'gateway', 'sim', 'worker', 'watcher'])(
    '%s refuses TEST_CLOCK=1 with NODE_ENV=production',
    async (entry) => {
      const { code, output } = await run(entry, {
        NODE_ENV: 'production',
        TEST_CLOCK: '1',
        SERVICE_URL: 'https://help.trade.example.org',
        DEPOSIT_BANK_NAME: 'First Harbour Bank',
        DEPOSIT_BANK_CARD: '6217000010001234567',
        DEPOSIT_BANK_HOLDER: 'Harbour Trading Ltd',
        // Extended public keys other than the demo ones (BIP-32's test vectors 1 and 2).
        USDT_ERC20_XPUB:
          'xpub68Gmy5EdvgibQVfPdqkBBCHxA5htiqg55crXYuXoQRKfDBFA1WEjWgP6LHhwBZeNK1VTsfTFUHCdrfp1bgwQ9xv5ski8PX9rL2dZXvgGDnw',
        USDT_TRC20_XPUB:
          'xpub69H7F5d8KSRgmmdJg2KhpAK8SR3DjMwAdkxj3ZuxV27CprR9LgpeyGmXUbC6wb7ERfvrnKZjXoUmmDznezpbZb7ap6r1D3tgFxHmwMkQTPH',
        LEGAL_ENTITY: 'Harbour Trading Ltd',
        LEGAL_REGISTRATION: 'Company no. 09876543',
      });
      expect(code).toBe(78);
      expect(output).toContain('TEST_CLOCK="1": must not be 1 with NODE_ENV=production');
    },
  );

  it.each(['all', 'api'])(
    '%s refuses the demo receiving details and service link in production, naming each',
    async (entry) => {
      const { code, output } = await run(entry, {
        NODE_ENV: 'production',
        SERVICE_URL: '',
        DEPOSIT_BANK_NAME: '',
        DEPOSIT_BANK_CARD: '',
        DEPOSIT_BANK_HOLDER: '',
        USDT_ERC20_XPUB: '',
        USDT_TRC20_XPUB: '',
        LEGAL_ENTITY: '',
        LEGAL_REGISTRATION: '',
      });
      expect(code).toBe(78);
      for (const name of [
        'SERVICE_URL',
        'DEPOSIT_BANK_NAME',
        'DEPOSIT_BANK_CARD',
        'DEPOSIT_BANK_HOLDER',
        'USDT_ERC20_XPUB',
        'USDT_TRC20_XPUB',
        'LEGAL_ENTITY',
        'LEGAL_REGISTRATION',
      ])
        expect(output).toMatch(new RegExp(`- ${name} \\(not set\\): .*NODE_ENV=production`));
      // The demo keys are a public test wallet's: anyone could spend what users send to them.
      expect(output).toMatch(
        /- USDT_TRC20_XPUB \(not set\): is the demo key of a public test wallet/,
      );
    },
  );

  it('a gateway serves /metrics on its private port only', async () => {
    const [port, metricsPort] = [await freePort(), await freePort()];
    const gateway = startEntry('server/src/main/gateway.ts', {
      ...base,
      PORT: String(port),
      METRICS_PORT: String(metricsPort),
      HOST: '127.0.0.1',
    });
    try {
      await waitForHttp(`http://127.0.0.1:${port}/readyz`);
      expect((await fetch(`http://127.0.0.1:${port}/metrics`)).status).toBe(404);
      const res = await waitForHttp(`http://127.0.0.1:${metricsPort}/metrics`);
      expect(await res.text()).toMatch(/^gateway_connected_sockets\{role="gateway"\} 0$/m);
    } finally {
      expect(await gateway.stop('SIGTERM')).toBe(0);
    }
  });
});
