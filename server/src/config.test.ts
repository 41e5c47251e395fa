import { describe, expect, it } from 'vitest';
import { ConfigError, loadConfig } from './config';

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
});
