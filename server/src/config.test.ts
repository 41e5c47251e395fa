import { describe, expect, it } from 'vitest';
import {
  ConfigError,
  describeValue,
  loadConfig,
  maskUrlPassword,
  placeholders,
  type Role,
} from './config';

describe('config', () => {
  it('gives the embedded defaults when nothing is set', () => {
    const config = loadConfig({});
    expect(config.PORT).toBe(3000);
    expect(config.DATABASE_URL).toBeUndefined();
    expect(config.REDIS_URL).toBeUndefined();
    expect(config.dbDir).toMatch(/data[/\\]db$/);
  });

  it('names the variable of a bad value', () => {
    expect(() => loadConfig({ PORT: 'abc' })).toThrow(/PORT="abc"/);
  });

  it('lists every problem at once', () => {
    try {
      loadConfig({ PORT: '70000', DATABASE_URL: 'mysql://x', LOG_LEVEL: 'loud' });
      expect.unreachable();
    } catch (err) {
      expect(err).toBeInstanceOf(ConfigError);
      const names = (err as ConfigError).problems.map((p) => p.split('=')[0]);
      expect(names.sort()).toEqual(['DATABASE_URL', 'LOG_LEVEL', 'PORT']);
    }
  });

  it('treats an empty value as unset and parses lists', () => {
    const config = loadConfig({ PORT: '', CORS_ORIGINS: 'https://a.example, https://b.example' });
    expect(config.PORT).toBe(3000);
    expect(config.CORS_ORIGINS).toEqual(['https://a.example', 'https://b.example']);
  });

  it('reads the socket limits as numbers or off, and checks TRUST_PROXY as Express would', () => {
    const defaults = loadConfig({});
    expect([defaults.SOCKET_CONNECT_RATE, defaults.SOCKET_MAX_PER_ADDRESS]).toEqual([120, 100]);
    const set = loadConfig({ SOCKET_CONNECT_RATE: 'off', SOCKET_MAX_PER_ADDRESS: '7' });
    expect([set.SOCKET_CONNECT_RATE, set.SOCKET_MAX_PER_ADDRESS]).toEqual([null, 7]);
    expect(loadConfig({ TRUST_PROXY: 'loopback, 10.0.0.0/8' }).TRUST_PROXY).toBe(
      'loopback, 10.0.0.0/8',
    );
    try {
      loadConfig({
        SOCKET_CONNECT_RATE: '0',
        SOCKET_MAX_PER_ADDRESS: 'many',
        TRUST_PROXY: 'my-proxy',
      });
      expect.unreachable();
    } catch (err) {
      const names = (err as ConfigError).problems.map((p) => p.split('=')[0]);
      expect(names.sort()).toEqual([
        'SOCKET_CONNECT_RATE',
        'SOCKET_MAX_PER_ADDRESS',
        'TRUST_PROXY',
      ]);
    }
  });

  it('reads the market-read and order throttles as figures or off', () => {
    const defaults = loadConfig({});
    expect(defaults.MARKET_READ_RATE).toEqual({ points: 300, durationSec: 60 });
    expect([defaults.ORDER_BURST, defaults.ORDER_RATE]).toEqual([10, 5]);
    const set = loadConfig({ MARKET_READ_RATE: '20/5s', ORDER_BURST: '3', ORDER_RATE: '0.5' });
    expect(set.MARKET_READ_RATE).toEqual({ points: 20, durationSec: 5 });
    expect([set.ORDER_BURST, set.ORDER_RATE]).toEqual([3, 0.5]);
    const off = loadConfig({ MARKET_READ_RATE: 'off', ORDER_RATE: 'off' });
    expect([off.MARKET_READ_RATE, off.ORDER_RATE]).toEqual([null, null]);
    try {
      loadConfig({ MARKET_READ_RATE: '300', ORDER_BURST: '0', ORDER_RATE: '0' });
      expect.unreachable();
    } catch (err) {
      const names = (err as ConfigError).problems.map((p) => p.split('=')[0]);
      expect(names.sort()).toEqual(['MARKET_READ_RATE', 'ORDER_BURST', 'ORDER_RATE']);
    }
    expect(() => loadConfig({ MARKET_READ_RATE: '0/60s' })).toThrow(/MARKET_READ_RATE/);
  });
});

/** The problems of a config that must fail, as one text (what the process prints). */
const problemsOf = (env: Record<string, string>, role?: Role): string => {
  try {
    loadConfig(env, role);
  } catch (err) {
    expect(err).toBeInstanceOf(ConfigError);
    return (err as ConfigError).message;
  }
  return expect.unreachable('the config was accepted');
};

const realDetails = {
  SERVICE_URL: 'https://help.trade.example.org/chat',
  DEPOSIT_BANK_NAME: 'First Harbour Bank',
  DEPOSIT_BANK_CARD: '6217000010001234567',
  DEPOSIT_BANK_HOLDER: 'Harbour Trading Ltd',
  // Extended public keys other than the demo ones (BIP-32's test vectors 1 and 2, m/0' and m/0).
  USDT_ERC20_XPUB:
    'xpub68Gmy5EdvgibQVfPdqkBBCHxA5htiqg55crXYuXoQRKfDBFA1WEjWgP6LHhwBZeNK1VTsfTFUHCdrfp1bgwQ9xv5ski8PX9rL2dZXvgGDnw',
  USDT_TRC20_XPUB:
    'xpub69H7F5d8KSRgmmdJg2KhpAK8SR3DjMwAdkxj3ZuxV27CprR9LgpeyGmXUbC6wb7ERfvrnKZjXoUmmDznezpbZb7ap6r1D3tgFxHmwMkQTPH',
  LEGAL_ENTITY: 'Harbour Trading Ltd',
  LEGAL_REGISTRATION: 'Company no. 09876543, registered in Harbourland',
};

describe('config errors keep secrets out of the output', () => {
  it('names a bad OPERATOR_TOKEN without showing it', () => {
    const text = problemsOf({ OPERATOR_TOKEN: 'hunter2-short' });
    expect(text).toContain('OPERATOR_TOKEN=(hidden): must be at least 16 characters');
    expect(text).not.toContain('hunter2');
  });

  it('names a short SOCKET_TICKET_SECRET without showing it, and keeps the drain within the shutdown', () => {
    const text = problemsOf({ SOCKET_TICKET_SECRET: 'short-secret', GATEWAY_DRAIN_MS: '10000' });
    expect(text).toContain('SOCKET_TICKET_SECRET=(hidden): must be at least 32 characters');
    expect(text).not.toContain('short-secret');
    expect(text).toContain('GATEWAY_DRAIN_MS="10000": must be below SHUTDOWN_TIMEOUT_MS');
    const ok = loadConfig({ SOCKET_TICKET_SECRET: 'x'.repeat(32) });
    expect(ok).toMatchObject({ SOCKET_TICKET_TTL_MS: 600_000, GATEWAY_DRAIN_MS: 3000 });
  });

  it('masks the password of a database or Redis URL, parsed or not', () => {
    const text = problemsOf({
      DATABASE_URL: 'mysql://admin:s3cr%40t@db.internal:3306/trade?password=again',
      REDIS_URL: 'http://:r3dis-pw@cache:6379',
    });
    expect(text).toContain('DATABASE_URL="mysql://admin:***@db.internal:3306/trade?password=***"');
    expect(text).toContain('REDIS_URL="http://:***@cache:6379"');
    expect(text).not.toMatch(/s3cr|again|r3dis-pw/);
    // Without a scheme, the URL variables still hide what sits between "user:" and "@".
    expect(problemsOf({ DATABASE_URL: 'admin:pa@ss/word@db:5432/trade' })).toContain(
      'DATABASE_URL="admin:***@db:5432/trade"',
    );
  });

  it('hides any variable whose name says secret, token or password', () => {
    for (const name of ['JWT_SECRET', 'SESSION_TOKEN', 'DB_PASSWORD', 'smtp_password'])
      expect(describeValue(name, 'abc123')).toBe(`${name}=(hidden)`);
    expect(describeValue('PORT', 'abc')).toBe('PORT="abc"');
    expect(describeValue('SERVICE_URL', undefined)).toBe('SERVICE_URL (not set)');
    // Not a URL variable and no scheme: an e-mail style value is shown as it is.
    expect(maskUrlPassword('mailto:help@example.com')).toBe('mailto:help@example.com');
  });
});

describe('config refusals', () => {
  it('lists the production refusals together with any bad value', () => {
    const text = problemsOf({ NODE_ENV: 'production', TEST_CLOCK: '1', PORT: 'abc' }, 'api');
    for (const name of ['PORT="abc"', 'TEST_CLOCK="1"', ...Object.keys(placeholders)])
      expect(text).toContain(`- ${name}`);
  });

  it('refuses TEST_CLOCK=1 in production, in every role', () => {
    for (const role of ['all', 'api', 'gateway', 'sim', 'worker', 'watcher'] as const)
      expect(problemsOf({ NODE_ENV: 'production', TEST_CLOCK: '1', ...realDetails }, role)).toMatch(
        /TEST_CLOCK="1": must not be 1 with NODE_ENV=production/,
      );
    expect(loadConfig({ TEST_CLOCK: '1' }).TEST_CLOCK).toBe('1');
  });

  it('refuses the demo receiving details and service link in a production api, naming each', () => {
    for (const role of ['all', 'api'] as const) {
      const text = problemsOf({ NODE_ENV: 'production' }, role);
      for (const name of Object.keys(placeholders)) expect(text).toContain(`${name} (not set): `);
      expect(text).toContain('set your customer service link');
      expect(text).toContain("set the platform's real receiving details");
      for (const name of ['USDT_ERC20_XPUB', 'USDT_TRC20_XPUB'])
        expect(text).toMatch(
          new RegExp(`^ {2}- ${name} \\(not set\\): is the demo key of a public test wallet`, 'm'),
        );
    }
    // Set to the placeholder by hand is no better than not set.
    const byHand = problemsOf(
      {
        NODE_ENV: 'production',
        ...realDetails,
        DEPOSIT_BANK_CARD: placeholders.DEPOSIT_BANK_CARD,
        USDT_TRC20_XPUB: placeholders.USDT_TRC20_XPUB,
      },
      'api',
    );
    expect(byHand).toMatch(/^ {2}- DEPOSIT_BANK_CARD="\d+": is a demo placeholder/m);
    expect(byHand).toMatch(
      /^ {2}- USDT_TRC20_XPUB="xpub\w+": is the demo key of a public test wallet/m,
    );
    expect(byHand).not.toContain('USDT_ERC20_XPUB');
    expect(loadConfig({ NODE_ENV: 'production', ...realDetails }, 'api').SERVICE_URL).toBe(
      realDetails.SERVICE_URL,
    );
    // Processes that show users nothing do not need them; nor does development.
    for (const role of ['gateway', 'sim', 'worker', 'watcher'] as const)
      expect(loadConfig({ NODE_ENV: 'production' }, role).NODE_ENV).toBe('production');
    expect(loadConfig({}, 'api').SERVICE_URL).toBe(placeholders.SERVICE_URL);
  });

  it('says plainly that the default receiving details are examples', () => {
    const c = loadConfig({});
    expect(c.DEPOSIT_BANK_NAME).toMatch(/\(demo\)$/);
    expect(c.DEPOSIT_BANK_HOLDER).toMatch(/\(demo\)$/);
    for (const v of Object.values(placeholders))
      expect(v).not.toMatch(/Demo Bank|Trade Demo|Tests/);
  });

  it('reads the withdrawal fee: none by default, basis points and a minimum below WITHDRAW_MIN', () => {
    expect(loadConfig({})).toMatchObject({ WITHDRAW_FEE_BPS: 0, WITHDRAW_FEE_MIN: 0 });
    expect(loadConfig({ WITHDRAW_FEE_BPS: '150', WITHDRAW_FEE_MIN: '200' })).toMatchObject({
      WITHDRAW_FEE_BPS: 150,
      WITHDRAW_FEE_MIN: 200,
    });
    expect(problemsOf({ WITHDRAW_FEE_BPS: '5001' })).toMatch(/WITHDRAW_FEE_BPS="5001"/);
    expect(problemsOf({ WITHDRAW_FEE_BPS: '1.5' })).toMatch(/WITHDRAW_FEE_BPS="1.5"/);
    expect(problemsOf({ WITHDRAW_FEE_MIN: '1000' })).toMatch(
      /WITHDRAW_FEE_MIN.*below WITHDRAW_MIN/,
    );
  });

  it("checks the platform's receiving number in its country's form, with a branch in Japan", () => {
    const de = loadConfig({
      DEPOSIT_BANK_COUNTRY: 'de',
      DEPOSIT_BANK_CARD: 'DE89 3704 0044 0532 0130 00',
    });
    expect(de).toMatchObject({
      DEPOSIT_BANK_COUNTRY: 'DE',
      DEPOSIT_BANK_CARD: 'DE89370400440532013000',
    });
    expect(
      problemsOf({ DEPOSIT_BANK_COUNTRY: 'DE', DEPOSIT_BANK_CARD: 'DE88370400440532013000' }),
    ).toMatch(/DEPOSIT_BANK_CARD.*check digits/);
    expect(problemsOf({ DEPOSIT_BANK_CARD: '12AB' })).toMatch(/DEPOSIT_BANK_CARD.*8-30 digits/);
    expect(problemsOf({ DEPOSIT_BANK_COUNTRY: 'JP', DEPOSIT_BANK_CARD: '1234567' })).toMatch(
      /DEPOSIT_BANK_BRANCH.*required/,
    );
    expect(
      loadConfig({
        DEPOSIT_BANK_COUNTRY: 'JP',
        DEPOSIT_BANK_CARD: '1234567',
        DEPOSIT_BANK_BRANCH: '本店営業部',
      }).DEPOSIT_BANK_BRANCH,
    ).toBe('本店営業部');
    expect(problemsOf({ DEPOSIT_BANK_COUNTRY: 'Japan' })).toMatch(/DEPOSIT_BANK_COUNTRY/);
  });

  it('listens on loopback unless HOST says otherwise, and keeps metrics off the app port', () => {
    expect(loadConfig({}).HOST).toBe('127.0.0.1');
    expect(loadConfig({ HOST: '0.0.0.0' }).HOST).toBe('0.0.0.0');
    expect(loadConfig({}).METRICS_PORT).toBeUndefined();
    expect(loadConfig({ METRICS_PORT: '9464' }).METRICS_PORT).toBe(9464);
    expect(problemsOf({ PORT: '3000', METRICS_PORT: '3000' })).toMatch(
      /METRICS_PORT="3000": must differ from PORT/,
    );
  });
});

describe('brand and trust settings', () => {
  it('defaults to examples that say they are examples, and no configured risk line', () => {
    const config = loadConfig({});
    expect(config.LEGAL_ENTITY).toMatch(/example/i);
    expect(config.LEGAL_ENTITY).toMatch(/demo/i);
    expect(config.LEGAL_REGISTRATION).toMatch(/demo/i);
    expect(config.RISK_WARNING).toBeUndefined();
    expect(config.APP_LOGO_URL).toBeUndefined();
    expect(config.TERMS_VERSION).toBe('2026-11');
    expect(config.SHOW_CREDIT_SCORE).toBe(true);
  });

  it('refuses the example company in a production api, naming each variable', () => {
    const text = problemsOf({ NODE_ENV: 'production', ...realDetails, LEGAL_ENTITY: '' }, 'api');
    expect(text).toMatch(/LEGAL_ENTITY \(not set\): is the example/);
    expect(text).not.toContain('LEGAL_REGISTRATION');
    const set = problemsOf(
      {
        NODE_ENV: 'production',
        ...realDetails,
        LEGAL_REGISTRATION: placeholders.LEGAL_REGISTRATION,
      },
      'api',
    );
    expect(set).toMatch(/LEGAL_REGISTRATION=".*": is the example/);
    // Processes that show users nothing do not need them.
    expect(loadConfig({ NODE_ENV: 'production' }, 'worker').LEGAL_ENTITY).toBe(
      placeholders.LEGAL_ENTITY,
    );
  });

  it('checks the logo URL, the terms version and the credit score switch', () => {
    expect(loadConfig({ APP_LOGO_URL: '/brand/logo.svg' }).APP_LOGO_URL).toBe('/brand/logo.svg');
    expect(loadConfig({ APP_LOGO_URL: 'https://cdn.example.org/l.svg' }).APP_LOGO_URL).toBe(
      'https://cdn.example.org/l.svg',
    );
    for (const bad of ['http://cdn.example.org/l.svg', '//cdn.example.org/l.svg', 'logo.svg'])
      expect(problemsOf({ APP_LOGO_URL: bad })).toMatch(/APP_LOGO_URL=.*must be a path/);
    expect(problemsOf({ TERMS_VERSION: 'v 1' })).toMatch(/TERMS_VERSION="v 1"/);
    expect(loadConfig({ SHOW_CREDIT_SCORE: 'false' }).SHOW_CREDIT_SCORE).toBe(false);
    expect(problemsOf({ SHOW_CREDIT_SCORE: 'maybe' })).toMatch(/SHOW_CREDIT_SCORE/);
    expect(loadConfig({ RISK_WARNING: '  Trading is risky.  ' }).RISK_WARNING).toBe(
      'Trading is risky.',
    );
  });
});
