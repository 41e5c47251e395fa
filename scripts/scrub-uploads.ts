/**
 * `npm run scrub:uploads -- [--data-dir DIR] [--dry-run]`
 *
 * Removes the metadata (Exif with its GPS position, XMP, colour profiles, comments) from uploads
 * stored before the server cleaned every upload on arrival (issue 33): each file in
 * `DATA_DIR/uploads` that still holds some is encoded again in its own type, upright, and put in
 * place by a rename. Safe beside a running app and safe to run twice (a clean file is left as it
 * is). Run it once on the volume the api processes share. Prints a JSON report; exits 1 when a
 * file could not be read as an image (named in the report, left as it was), 2 on a usage error.
 */
import path from 'node:path';
import { parseArgs } from 'node:util';
import { scrubUploads } from '@server/modules/uploads/scrub';
import { runCli } from './cli';

const usage = `usage: npm run scrub:uploads -- [--data-dir DIR] [--dry-run]
  --data-dir  the app's DATA_DIR (default: DATA_DIR, else ./data); uploads are in its uploads/
  --dry-run   count the files that hold metadata, change nothing`;

async function main(): Promise<number> {
  const { values } = parseArgs({
    options: {
      'data-dir': { type: 'string' },
      'dry-run': { type: 'boolean' },
      help: { type: 'boolean', short: 'h' },
    },
    strict: true,
  });
  if (values.help) {
    console.log(usage);
    return 0;
  }
  const dir = path.join(values['data-dir'] ?? process.env.DATA_DIR ?? './data', 'uploads');
  const dryRun = values['dry-run'] === true;
  const report = await scrubUploads(dir, { dryRun });
  console.log(JSON.stringify({ dir, dryRun, ...report }, null, 2));
  return report.failed.length ? 1 : 0;
}

runCli('scrub-uploads', usage, main);
