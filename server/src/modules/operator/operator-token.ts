import { randomBytes } from 'node:crypto';
import fs from 'node:fs';
import path from 'node:path';
import type { Queryable } from '@infra/db';
import { getMeta, setMetaIfAbsent } from '@infra/db/meta.repo';
import { sha256 } from '@server/platform/http/auth';

const META_KEY = 'operator_token_sha256';

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
