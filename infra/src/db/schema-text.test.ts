import fs from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { dbDrivers, openTestDb } from '@tests/support/db';
import { schemaText } from './schema-text';

const committed = path.resolve(import.meta.dirname, '../../../docs/schema.sql');

/**
 * docs/schema.sql is the schema the migrations build, on each database this run has: the embedded
 * one it is generated from, and PostgreSQL, whose per-test schema name stands where the file says
 * `public`. A migration added without `npm run schema`, or an edit of the file, fails here.
 */
describe.each(dbDrivers())('docs/schema.sql on %s', (kind) => {
  it('is what the migrations build', async () => {
    const t = await openTestDb(kind);
    try {
      let text = await schemaText(t.db);
      if (t.schema) text = text.replaceAll(`${t.schema}.`, 'public.');
      expect(text, 'docs/schema.sql is stale: run `npm run schema` and commit it').toBe(
        fs.readFileSync(committed, 'utf8'),
      );
    } finally {
      await t.drop();
    }
  });
});

it('reads the money core in one place: ledger_transfer once, as its newest migration left it', () => {
  const text = fs.readFileSync(committed, 'utf8');
  expect(text.match(/FUNCTION public\.ledger_transfer\(/g)).toHaveLength(1);
  const migrations = path.resolve(import.meta.dirname, 'migrations');
  const newest = fs
    .readdirSync(migrations)
    .sort()
    .reverse()
    .map((f) => fs.readFileSync(path.join(migrations, f), 'utf8'))
    .find((sql) => /FUNCTION ledger_transfer\(/.test(sql))!;
  // The body's last line of the newest definition is in the file (its body, not an older one).
  const body = /AS \$\$([\s\S]*?)\$\$/.exec(
    newest.slice(newest.indexOf('FUNCTION ledger_transfer(')),
  )![1]!;
  for (const line of body
    .split('\n')
    .map((l) => l.trim())
    .filter((l) => l && !l.startsWith('--')))
    expect(text).toContain(line);
});
