import { randomBytes } from 'node:crypto';
import fs from 'node:fs/promises';
import path from 'node:path';
import { scrubbed } from './image';

/** What a pass over the stored uploads did. */
export interface ScrubReport {
  /** Upload files looked at. */
  scanned: number;
  /** Those that held metadata and were written again without it. */
  cleaned: number;
  /** Those that could not be read as an image, left as they were, by id. */
  failed: string[];
}

/** An upload's file name: the server's random id (upload.service.ts), nothing else. */
const uploadFile = /^[A-Za-z0-9_-]{22}$/;

/**
 * Cleans the uploads stored before every upload was encoded again on arrival (issue 33): each
 * file under `dir` that still holds metadata (a photo's Exif and GPS position) is encoded again
 * in its own type without it, upright, and put in place of the old one by a rename, so a reader
 * sees the old file or the new one, never half of one; the running app may keep serving. Files
 * without metadata are left untouched, so a second pass changes nothing. Types stay as they
 * were: the `uploads` rows need no change. `dryRun` only counts.
 */
export async function scrubUploads(
  dir: string,
  {
    dryRun = false,
    onFile,
  }: { dryRun?: boolean; onFile?: (id: string, cleaned: boolean) => void } = {},
): Promise<ScrubReport> {
  const report: ScrubReport = { scanned: 0, cleaned: 0, failed: [] };
  const names = (await fs.readdir(dir).catch(() => [] as string[])).filter((n) =>
    uploadFile.test(n),
  );
  for (const id of names.sort()) {
    report.scanned++;
    const file = path.join(dir, id);
    let clean: Buffer | null;
    try {
      clean = await scrubbed(await fs.readFile(file));
    } catch {
      report.failed.push(id);
      continue;
    }
    if (clean && !dryRun) {
      const temp = path.join(dir, `.${id}.${randomBytes(6).toString('hex')}.tmp`);
      await fs.writeFile(temp, clean, { flag: 'wx', mode: 0o600 });
      await fs.rename(temp, file);
    }
    if (clean) report.cleaned++;
    onFile?.(id, clean !== null);
  }
  return report;
}
