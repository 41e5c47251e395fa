import { createHash, randomBytes, timingSafeEqual } from 'node:crypto';
import fs from 'node:fs';
import path from 'node:path';
import type { Queryable } from '@server/platform/db';
import { getMeta, setMetaIfAbsent } from '@server/platform/meta.repo';

const META_KEY = 'operator_token_sha256';
export const sha256 = (s: string) => createHash('sha256').update(s).digest('hex');

/** Where an embedded start keeps the generated operator token for the `npm run ops` CLI. */
export const operatorTokenFile = (dataDir: string) => path.join(dataDir, 'operator-token');

/**
 * The operator token's hash. OPERATOR_TOKEN wins; else the one stored by an earlier start; else,
 * on an embedded start only, a new random token written to DATA_DIR/operator-token (mode 0600) and
 * returned as `created` so the caller prints it once. Null: operator endpoints stay closed.
 */
export async function resolveOperatorToken(
  db: Queryable,
  opts: { configured?: string; dataDir: string; embedded: boolean },
): Promise<{ hash: string | null; created?: string }> {
  if (opts.configured) return { hash: sha256(opts.configured) };
  const stored = await getMeta(db, META_KEY);
  if (stored || !opts.embedded) return { hash: stored };
  const token = randomBytes(24).toString('base64url');
  const hash = await setMetaIfAbsent(db, META_KEY, sha256(token));
  if (hash !== sha256(token)) return { hash };
  fs.mkdirSync(opts.dataDir, { recursive: true });
  fs.writeFileSync(operatorTokenFile(opts.dataDir), `${token}\n`, { mode: 0o600 });
  return { hash, created: token };
}

/**
 * The SHA-256 of each operator token the api accepts: the current one, and during a rotation the
 * one it replaces (OPERATOR_TOKEN_PREVIOUS).
 */
export type OperatorTokenHashes = string | readonly string[];

/** Constant-time comparison of a presented token with every accepted hash (no early exit). */
export function operatorTokenMatches(presented: string, hashes: OperatorTokenHashes): boolean {
  const a = Buffer.from(sha256(presented), 'hex');
  let matched = false;
  for (const hash of typeof hashes === 'string' ? [hashes] : hashes) {
    const b = Buffer.from(hash, 'hex');
    if (a.length === b.length && timingSafeEqual(a, b)) matched = true;
  }
  return matched;
}
