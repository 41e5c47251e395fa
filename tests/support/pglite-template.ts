import { createHash } from 'node:crypto';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { createPgliteDb } from '@infra/db/pglite';
import { migrate, readMigrations } from '@infra/db/migrate';
import { repoRoot } from './processes';

/**
 * A new PGlite cluster runs initdb in WebAssembly: 5–15 s on a CI machine (1.5–2 s to load a
 * copy), paid by every test file that opens an in-memory PGlite and by every embedded app started
 * on an empty data directory. So the migrated cluster is made once per set of migrations and
 * PGlite version, and copied: a tar for in-memory databases (PGlite's `loadDataDir`), a data
 * directory for apps. Both are exactly what a fresh start would have made: initdb, then every
 * migration, nothing else (each app still seeds its own data on its first start).
 */
const version = (
  JSON.parse(
    fs.readFileSync(path.join(repoRoot, 'node_modules/@electric-sql/pglite/package.json'), 'utf8'),
  ) as { version: string }
).version;
const key = createHash('sha256')
  .update(version)
  .update(JSON.stringify(readMigrations()))
  .digest('hex')
  .slice(0, 16);
const home = path.join(os.tmpdir(), `trade-pglite-template-${key}`);
const tarPath = path.join(home, 'migrated.tar');
const dirPath = path.join(home, 'db');

/** Renames `from` to `to` unless another process got there first (then `from` goes). */
function settle(from: string, to: string): void {
  try {
    if (!fs.existsSync(to)) fs.renameSync(from, to);
  } catch (err) {
    if (!fs.existsSync(to)) throw err;
  }
  fs.rmSync(from, { recursive: true, force: true });
}

/**
 * Makes both copies if missing. Run by the suite's global set-up, before any test starts; a
 * process that finds them missing (a script, a single file run on its own) makes them itself.
 */
export async function ensurePgliteTemplate(): Promise<void> {
  if (fs.existsSync(tarPath) && fs.existsSync(dirPath)) return;
  fs.mkdirSync(home, { recursive: true });
  const scratch = fs.mkdtempSync(path.join(home, `tmp-${process.pid}-`));
  const db = await createPgliteDb(path.join(scratch, 'db'));
  await migrate(db);
  await db.close();
  // The tar comes from a database loaded with the directory, so both hold the same cluster.
  const { PGlite } = await import('@electric-sql/pglite');
  const copy = await PGlite.create(path.join(scratch, 'db'));
  const tar = Buffer.from(await (await copy.dumpDataDir('none')).arrayBuffer());
  await copy.close();
  fs.writeFileSync(path.join(scratch, 'migrated.tar'), tar);
  settle(path.join(scratch, 'migrated.tar'), tarPath);
  settle(path.join(scratch, 'db'), dirPath);
  fs.rmSync(scratch, { recursive: true, force: true });
}

/** The migrated cluster as PGlite's tar, for `createPgliteDb(undefined, { from })`. */
export async function migratedTemplate(): Promise<Blob> {
  await ensurePgliteTemplate();
  return new Blob([fs.readFileSync(tarPath)]);
}

/** Copies the migrated cluster into `dbDir` (an app's `DATA_DIR/db`) unless it holds one. */
export async function seedDataDir(dbDir: string): Promise<void> {
  if (fs.existsSync(dbDir)) return;
  await ensurePgliteTemplate();
  fs.cpSync(dirPath, dbDir, { recursive: true });
}
