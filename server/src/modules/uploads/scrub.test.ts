import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { GPS_IFD_TAG, exifTags, inspect, phonePhoto } from '@tests/support/images';
import { images } from '@tests/support/wallet';
import { runScript } from '@tests/support/processes';
import { scrubUploads } from './scrub';

describe('scrubUploads: uploads stored before they were cleaned on arrival', () => {
  let dir: string;
  afterEach(() => fs.rmSync(dir, { recursive: true, force: true }));

  /** A directory as an older version left it: a phone photo, clean images, a broken file. */
  const legacy = async () => {
    dir = fs.mkdtempSync(path.join(os.tmpdir(), 'scrub-'));
    const files = {
      photo: 'AAAAAAAAAAAAAAAAAAAAAA',
      clean: 'BBBBBBBBBBBBBBBBBBBBBB',
      broken: 'CCCCCCCCCCCCCCCCCCCCCC',
    };
    const photo = await phonePhoto();
    expect(exifTags((await inspect(photo)).exif!).has(GPS_IFD_TAG)).toBe(true);
    fs.writeFileSync(path.join(dir, files.photo), photo);
    fs.writeFileSync(path.join(dir, files.clean), images.png);
    fs.writeFileSync(path.join(dir, files.broken), 'not an image');
    fs.writeFileSync(path.join(dir, 'README'), 'not an upload');
    return files;
  };

  it('writes each file that holds metadata again without it, upright; leaves the rest', async () => {
    const files = await legacy();
    const report = await scrubUploads(dir);
    expect(report).toEqual({ scanned: 3, cleaned: 1, failed: [files.broken] });
    const photo = fs.readFileSync(path.join(dir, files.photo));
    expect(await inspect(photo)).toMatchObject({
      format: 'jpeg',
      width: 20,
      height: 40,
      exif: undefined,
      xmp: undefined,
      icc: undefined,
      exifMarker: false,
    });
    expect(fs.statSync(path.join(dir, files.photo)).mode & 0o777).toBe(0o600);
    expect(fs.readFileSync(path.join(dir, files.clean)).equals(images.png)).toBe(true);
    expect(fs.readFileSync(path.join(dir, files.broken), 'utf8')).toBe('not an image');
    // No temporary file is left, and a second pass finds nothing to do.
    expect(fs.readdirSync(dir).sort()).toEqual([...Object.values(files), 'README'].sort());
    expect(await scrubUploads(dir)).toEqual({ scanned: 3, cleaned: 0, failed: [files.broken] });
    expect(fs.readFileSync(path.join(dir, files.photo)).equals(photo)).toBe(true);
  });

  it('only counts with dryRun', async () => {
    const files = await legacy();
    const before = fs.readFileSync(path.join(dir, files.photo));
    expect(await scrubUploads(dir, { dryRun: true })).toMatchObject({ scanned: 3, cleaned: 1 });
    expect(fs.readFileSync(path.join(dir, files.photo)).equals(before)).toBe(true);
  });

  it('finds nothing in a directory that does not exist yet', async () => {
    dir = path.join(os.tmpdir(), `scrub-none-${process.pid}`);
    expect(await scrubUploads(dir)).toEqual({ scanned: 0, cleaned: 0, failed: [] });
  });
});

describe('npm run scrub:uploads', () => {
  it('cleans DATA_DIR/uploads and reports it; names a file it could not read, exit 1', async () => {
    const data = fs.mkdtempSync(path.join(os.tmpdir(), 'scrub-cli-'));
    try {
      const dir = path.join(data, 'uploads');
      fs.mkdirSync(dir);
      fs.writeFileSync(path.join(dir, 'AAAAAAAAAAAAAAAAAAAAAA'), await phonePhoto());
      const run = (...args: string[]) =>
        runScript(['scripts/scrub-uploads.ts', '--data-dir', data, ...args]);
      const dry = await run('--dry-run');
      expect(dry.status, dry.stderr).toBe(0);
      expect(JSON.parse(dry.stdout)).toEqual({
        dir,
        dryRun: true,
        scanned: 1,
        cleaned: 1,
        failed: [],
      });
      const done = await run();
      expect(JSON.parse(done.stdout)).toMatchObject({ dryRun: false, cleaned: 1 });
      expect((await inspect(fs.readFileSync(path.join(dir, 'AAAAAAAAAAAAAAAAAAAAAA')))).exif).toBe(
        undefined,
      );
      fs.writeFileSync(path.join(dir, 'BBBBBBBBBBBBBBBBBBBBBB'), 'not an image');
      const failed = await run();
      expect(failed.status).toBe(1);
      expect(JSON.parse(failed.stdout)).toMatchObject({
        cleaned: 0,
        failed: ['BBBBBBBBBBBBBBBBBBBBBB'],
      });
      expect((await run('--nonsense')).status).toBe(2);
    } finally {
      fs.rmSync(data, { recursive: true, force: true });
    }
  }, 60_000);
});
