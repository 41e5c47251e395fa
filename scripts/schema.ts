import fs from 'node:fs';
import path from 'node:path';
import { migrate } from '@infra/db/migrate';
import { createPgliteDb } from '@infra/db/pglite';
import { schemaText } from '@infra/db/schema-text';

/**
 * `npm run schema`: writes docs/schema.sql, the schema the migrations build, read back from a
 * fresh embedded database (schema-text.ts). Run it after adding a migration and commit the file.
 */
const db = await createPgliteDb();
try {
  await migrate(db);
  const file = path.resolve(import.meta.dirname, '../docs/schema.sql');
  fs.writeFileSync(file, await schemaText(db));
  console.log(`wrote ${path.relative(process.cwd(), file)}`);
} finally {
  await db.close();
}
