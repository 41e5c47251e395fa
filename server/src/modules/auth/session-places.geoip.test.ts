import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { SecuritySession } from '@shared/security/model';
import { dbDrivers, openTestDb, type TestDb } from '@tests/support/db';
import { buildTestApi, registerUser, type TestApi } from '@tests/support/api';
import { writeGeoDatabase } from '@tests/support/geoip';
import { itemsOf } from '@tests/support/wallet';
import { loadConfig } from '@server/config';
import { openPlaces } from '@server/platform/geoip';

// Public addresses (the writer leaves documentation and private ranges out of a database).
const LONDON = '81.2.69.160';
const BERLIN_V6 = '2a02:8100::1';
const NOWHERE = '175.16.199.1';

describe.each(dbDrivers())('the places of sessions, from a GeoIP database, on %s', (kind) => {
  let t: TestDb;
  let api: TestApi;
  beforeAll(async () => {
    const database = writeGeoDatabase([
      { network: '81.2.69.0/24', country: 'GB', city: 'London' },
      { network: '2a02:8100::/32', country: 'DE' },
    ]);
    t = await openTestDb(kind);
    api = await buildTestApi(t.db, { env: { GEOIP_DATABASE: database } });
  });
  afterAll(async () => {
    await api.close();
    await t.drop();
  });

  it('names each session by city and country where the database knows its address, else none', async () => {
    const u = await registerUser(api, 'geo');
    for (const from of [LONDON, BERLIN_V6, NOWHERE])
      await api.http
        .post('/api/auth/login')
        .set('X-Forwarded-For', from)
        .send({ account: u.account, password: u.password })
        .expect(200);
    const sessions = itemsOf<SecuritySession>(
      await api.http.get('/api/security/sessions').set(u.auth).expect(200),
    );
    const places = sessions.map((s) => s.place);
    expect(places).toContainEqual({ country: 'GB', city: 'London' });
    expect(places).toContainEqual({ country: 'DE', city: null });
    // The registration's own address and the unknown one: no place, not a wrong one.
    expect(places.filter((p) => p === null)).toHaveLength(2);
  });
});

describe('GEOIP_DATABASE', () => {
  it('must be a readable file: a typo is refused at start, not found at the first sign-in', () => {
    expect(() => loadConfig({ GEOIP_DATABASE: '/nonexistent/GeoLite2-City.mmdb' })).toThrow(
      /GEOIP_DATABASE=.*must be a readable MaxMind database file/,
    );
  });

  it('must be a MaxMind database: another file stops the start with a sentence saying so', () => {
    const notOne = path.join(fs.mkdtempSync(path.join(os.tmpdir(), 'geoip-')), 'city.mmdb');
    fs.writeFileSync(notOne, 'not a database');
    expect(() => openPlaces(notOne)).toThrow(/GEOIP_DATABASE=.*is not a MaxMind database/);
  });
});
