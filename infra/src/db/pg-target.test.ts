import { describe, expect, it } from 'vitest';
import { parsePgTarget } from './pg-target';

describe('PostgreSQL URLs with several hosts', () => {
  it('gives each host a URL of its own, keeping credentials, database and parameters', () => {
    expect(
      parsePgTarget(
        'postgres://app:s%40cret@db1:5432,db2:6432,[::1]/trade?target_session_attrs=read-write&sslmode=require',
      ),
    ).toEqual({
      hostUrls: [
        'postgres://app:s%40cret@db1:5432/trade?sslmode=require',
        'postgres://app:s%40cret@db2:6432/trade?sslmode=require',
        'postgres://app:s%40cret@[::1]:5432/trade?sslmode=require',
      ],
      readWrite: true,
    });
  });
  it('reads one host as the driver would, any session by default', () => {
    expect(parsePgTarget('postgresql://postgres@127.0.0.1:5432/test')).toEqual({
      hostUrls: ['postgresql://postgres@127.0.0.1:5432/test'],
      readWrite: false,
    });
  });
  it('refuses what is not a host list or a known target', () => {
    expect(() => parsePgTarget('mysql://db/x')).toThrow('postgres://');
    expect(() => parsePgTarget('postgres://db1:99999/x')).toThrow('host[:port]');
    expect(() => parsePgTarget('postgres://db1,db2/x?target_session_attrs=standby')).toThrow(
      'target_session_attrs',
    );
  });
});
