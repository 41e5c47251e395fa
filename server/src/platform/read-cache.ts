import { createHash } from 'node:crypto';
import { promisify } from 'node:util';
import { gzip } from 'node:zlib';
import type { Request, Response } from 'express';

const gzipAsync = promisify(gzip);

/** An answer kept as bytes: serialized once, sent to every request that asks the same. */
export interface CachedBody {
  /** The answer as loaded (a caller that builds on a kept answer reads it; never changed). */
  value: unknown;
  json: Buffer;
  /** A weak validator of the bytes, so a client that has them gets 304. */
  etag: string;
  /** The gzip of `json`: made at the first request that accepts gzip, then shared. */
  gzip(): Promise<Buffer>;
}

export interface ReadCacheLimits {
  /** Answers kept at most. */
  maxEntries: number;
  /** Bytes kept at most: each answer's JSON counted twice (its objects are kept too), and its gzip once made. */
  maxBytes: number;
  /** An answer larger than this is sent but not kept. */
  maxEntryBytes: number;
}

export const readCacheLimits: ReadCacheLimits = {
  maxEntries: 2000,
  maxBytes: 32 * 2 ** 20,
  maxEntryBytes: 2 * 2 ** 20,
};

interface Entry {
  body: CachedBody;
  expiresAt: number;
  bytes: number;
}

/**
 * A short cache of serialized answers, with coalescing: while an answer is being made, every
 * request for the same key waits for it instead of making its own, so a thousand identical
 * requests cost one load and one JSON.stringify. Each key is kept for the `ttlMs` its caller
 * gives (an answer about "now" a second, a range in the past longer). Bounded by entries and
 * bytes: the least recently used go first (a Map keeps insertion order; a hit moves its key to
 * the end). A failed load is not kept; its waiters all get its error.
 */
export function createReadCache(
  limits: ReadCacheLimits = readCacheLimits,
  now: () => number = Date.now,
) {
  const entries = new Map<string, Entry>();
  const loading = new Map<string, Promise<CachedBody>>();
  let bytes = 0;

  const drop = (key: string, e: Entry) => {
    entries.delete(key);
    bytes -= e.bytes;
  };
  /** Drops the least recently used answers until both bounds hold. */
  const trim = () => {
    for (const [k, oldest] of entries) {
      if (entries.size <= limits.maxEntries && bytes <= limits.maxBytes) break;
      drop(k, oldest);
    }
  };
  const keep = (key: string, e: Entry) => {
    const old = entries.get(key);
    if (old) drop(key, old);
    entries.set(key, e);
    bytes += e.bytes;
    trim();
  };

  return {
    /**
     * The answer for `key`: kept, being made, or made now by `load` and kept for `ttlMs`.
     */
    get(key: string, ttlMs: number, load: () => Promise<unknown>): Promise<CachedBody> {
      const t = now();
      const hit = entries.get(key);
      if (hit && hit.expiresAt > t) {
        entries.delete(key);
        entries.set(key, hit);
        return Promise.resolve(hit.body);
      }
      if (hit) drop(key, hit);
      const pending = loading.get(key);
      if (pending) return pending;
      const made = (async () => {
        try {
          const value = await load();
          const json = Buffer.from(JSON.stringify(value));
          const kept = json.length <= limits.maxEntryBytes && ttlMs > 0;
          // The objects of `value` are kept too: counted as much again as their JSON.
          const entry: Entry | null = kept
            ? { body: null!, expiresAt: now() + ttlMs, bytes: 2 * json.length }
            : null;
          let gzipped: Promise<Buffer> | undefined;
          const body: CachedBody = {
            value,
            json,
            etag: etagOf(json),
            gzip: () =>
              (gzipped ??= gzipAsync(json).then((gz) => {
                // The gzip counts against the bytes too, while its entry is kept.
                if (entry && entries.get(key) === entry) {
                  entry.bytes += gz.length;
                  bytes += gz.length;
                  trim();
                }
                return gz;
              })),
          };
          if (entry) {
            entry.body = body;
            keep(key, entry);
          }
          return body;
        } finally {
          loading.delete(key);
        }
      })();
      loading.set(key, made);
      return made;
    },

    /** Answers kept and their bytes (tests, metrics). */
    get size() {
      return { entries: entries.size, bytes };
    },
  };
}

export type ReadCache = ReturnType<typeof createReadCache>;

const etagOf = (json: Buffer) =>
  `W/"${json.length.toString(16)}-${createHash('sha1').update(json).digest('base64url').slice(0, 27)}"`;

/** Answers under this many bytes go as they are (compression's own threshold). */
const GZIP_MIN_BYTES = 1024;

/**
 * Sends a kept answer: the same bytes for everyone, gzipped once for all clients that accept gzip
 * (the compression middleware leaves an answer that already has a Content-Encoding alone), with
 * its ETag, so Express answers 304 to a client that has it.
 */
export async function sendCached(req: Request, res: Response, body: CachedBody): Promise<void> {
  res.setHeader('Content-Type', 'application/json; charset=utf-8');
  res.setHeader('ETag', body.etag);
  res.setHeader('Vary', 'Accept-Encoding');
  if (body.json.length >= GZIP_MIN_BYTES && req.acceptsEncodings('gzip', 'identity') === 'gzip') {
    const gz = await body.gzip();
    res.setHeader('Content-Encoding', 'gzip');
    res.send(gz);
    return;
  }
  res.send(body.json);
}
