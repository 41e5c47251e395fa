import fs from 'node:fs';
import { Reader, type CityResponse } from 'maxmind';
import type { SessionPlace } from '@shared/security/model';

/**
 * The approximate place of an address, from a MaxMind-format database (GeoLite2 City or Country,
 * or any compatible one) the operator provides as GEOIP_DATABASE. Without one, no place is known:
 * the security page then lists sessions by device only. Looked up when a session is shown, never
 * stored: a database updated later (and the process restarted) names old sessions better too.
 */
export interface PlaceLookup {
  place(address: string | null): SessionPlace | null;
}

export const noPlaces: PlaceLookup = { place: () => null };

/** Reads the whole database into memory once (a City database is about 60 MB). */
export function openPlaces(path: string | undefined): PlaceLookup {
  if (!path) return noPlaces;
  let reader: Reader<CityResponse>;
  try {
    reader = new Reader<CityResponse>(fs.readFileSync(path));
  } catch (err) {
    throw new Error(`GEOIP_DATABASE=${path} is not a MaxMind database: ${(err as Error).message}`);
  }
  return {
    place(address) {
      if (!address) return null;
      let found: CityResponse | null;
      try {
        found = reader.get(address);
      } catch {
        return null; // not an address (a test's placeholder): no place
      }
      const country = found?.country?.iso_code ?? found?.registered_country?.iso_code;
      if (!country) return null;
      return { country, city: found?.city?.names?.en ?? null };
    },
  };
}
