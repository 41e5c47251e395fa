import fs from 'node:fs';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { dbDrivers, openTestDb, type TestDb } from '@tests/support/db';
import { buildTestApi, registerUser, type TestApi } from '@tests/support/api';
import {
  bankDepositFields,
  images,
  opsAuth,
  postDeposit,
  postKyc,
  type TestUser,
} from '@tests/support/wallet';
import {
  GPS_IFD_TAG,
  exifTags,
  inspect,
  jpegDeclaring,
  phonePhoto,
  pixelAt,
  pngDeclaring,
} from '@tests/support/images';

const MB = 1024 * 1024;
/** A PNG by its magic bytes, padded to `size` bytes. */
const pngOf = (size: number) => Buffer.concat([images.png, Buffer.alloc(size - images.png.length)]);

describe.each(dbDrivers())('uploads on %s', (kind) => {
  let t: TestDb;
  let api: TestApi;
  let alice: TestUser;
  let bob: TestUser;
  beforeAll(async () => {
    t = await openTestDb(kind);
    // Alice sends more screenshots than the deposit throttles allow one user (deposits.test.ts
    // covers those); here only the files matter.
    api = await buildTestApi(t.db, {
      deposits: { pendingMax: 100, rate: { points: 100, durationSec: 3600 } },
    });
    alice = await registerUser(api, 'upl');
    bob = await registerUser(api, 'upl');
  });
  afterAll(async () => {
    await api.close();
    await t.drop();
  });

  const counts = async () => {
    const { rows } = await t.db.query<{ uploads: number; deposits: number }>(
      'SELECT (SELECT count(*)::int FROM uploads) AS uploads, (SELECT count(*)::int FROM deposits) AS deposits',
    );
    const files = fs.existsSync(api.uploadsDir) ? fs.readdirSync(api.uploadsDir).length : 0;
    return { ...rows[0]!, files };
  };
  const send = (bytes: Buffer, name = 'shot.png', headers: Record<string, string> = alice.auth) =>
    postDeposit(api, headers, bankDepositFields(10_000), { bytes, name });

  it.each([
    ['JPEG', images.jpeg, 'image/jpeg', 'jpg'],
    ['PNG', images.png, 'image/png', 'png'],
    ['WebP', images.webp, 'image/webp', 'webp'],
  ])(
    'takes a %s and serves it back to its owner only, with safe headers',
    async (_n, bytes, mime, ext) => {
      const res = await send(bytes, 'whatever.bin').expect(201);
      const id = res.body.screenshotId as string;
      expect(id).toMatch(/^[A-Za-z0-9_-]{22}$/);
      const got = await api.http.get(`/api/uploads/${id}`).set(alice.auth).expect(200);
      expect(got.headers).toMatchObject({
        'content-type': mime,
        'x-content-type-options': 'nosniff',
        'content-disposition': `inline; filename="${id}.${ext}"`,
      });
      expect(got.headers['cache-control']).toBe('no-store');
      // The same picture, encoded again by the server: same type and size, nothing else kept.
      expect(await inspect(got.body as Buffer)).toMatchObject({
        format: ext === 'jpg' ? 'jpeg' : ext,
        width: 1,
        height: 1,
        exif: undefined,
        exifMarker: false,
      });
      await api.http.get(`/api/uploads/${id}`).set(opsAuth).expect(200);
      // Another user learns nothing, not even that it exists.
      const other = await api.http.get(`/api/uploads/${id}`).set(bob.auth).expect(404);
      expect(other.body.error.code).toBe('NOT_FOUND');
      await api.http.get(`/api/uploads/${id}`).expect(401);
      await api.http
        .get(`/api/uploads/${id}`)
        .set({ Authorization: 'Bearer nonsense' })
        .expect(401);
    },
  );

  it.each([
    ['a text file named .png', images.text, 'evil.png'],
    ['an SVG with a script', images.svg, 'pic.svg'],
    ['an SVG named .png', images.svg, 'pic.png'],
    ['a GIF', images.gif, 'anim.gif'],
    ['an empty file', Buffer.alloc(0), 'empty.png'],
    ['HTML', Buffer.from('<!doctype html><script>alert(1)</script>'), 'page.jpg'],
  ])('refuses %s with 400 UPLOAD_INVALID and keeps nothing', async (_name, bytes, name) => {
    const before = await counts();
    const res = await send(bytes, name).expect(400);
    expect(res.body.error).toMatchObject({ code: 'UPLOAD_INVALID', field: 'screenshot' });
    expect(await counts()).toEqual(before);
  });

  it('refuses a 20 MB file with 413 UPLOAD_TOO_LARGE, takes exactly 5 MB', async () => {
    const before = await counts();
    const big = await send(pngOf(20 * MB)).expect(413);
    expect(big.body.error).toMatchObject({ code: 'UPLOAD_TOO_LARGE', field: 'screenshot' });
    await send(pngOf(5 * MB + 1)).expect(413);
    expect(await counts()).toEqual(before);
    await send(pngOf(5 * MB)).expect(201);
  });

  it('never uses the client’s file name for a path', async () => {
    const outside = path.join(path.dirname(api.uploadsDir), 'escaped.png');
    for (const name of [
      '../escaped.png',
      '../../../../tmp/escaped.png',
      '..\\escaped.png',
      '/etc/x.png',
    ]) {
      const res = await send(images.png, name).expect(201);
      const got = await api.http.get(`/api/uploads/${res.body.screenshotId}`).set(alice.auth);
      expect(got.headers['content-disposition']).toBe(
        `inline; filename="${res.body.screenshotId}.png"`,
      );
    }
    expect(fs.existsSync(outside)).toBe(false);
    for (const f of fs.readdirSync(api.uploadsDir)) expect(f).toMatch(/^[A-Za-z0-9_-]{22}$/);
  });

  it('answers 404 for unknown and malformed ids', async () => {
    for (const id of ['AAAAAAAAAAAAAAAAAAAAAA', '..%2F..%2Fetc%2Fpasswd', 'x', '%00'])
      await api.http.get(`/api/uploads/${id}`).set(opsAuth).expect(404);
  });

  it('refuses uploads without a session before reading them', async () => {
    const before = await counts();
    const res = await send(images.png, 'shot.png', {}).expect(401);
    expect(res.body.error.code).toBe('UNAUTHENTICATED');
    expect(await counts()).toEqual(before);
  });

  it('refuses files in other fields, two screenshots, and malformed forms with 400', async () => {
    const before = await counts();
    const other = await postDeposit(api, alice.auth, bankDepositFields(10_000), null)
      .attach('avatar', images.png, 'a.png')
      .expect(400);
    expect(other.body.error).toMatchObject({ code: 'VALIDATION_FAILED', field: 'avatar' });
    const two = await send(images.png).attach('screenshot', images.png, 'b.png').expect(400);
    expect(two.body.error.code).toBe('VALIDATION_FAILED');
    const broken = await api.http
      .post('/api/deposits')
      .set(alice.auth)
      .set('Content-Type', 'multipart/form-data; boundary=xyz')
      .send('--xyz\r\nContent-Disposition: form-data; name="channel"\r\n\r\nbank')
      .expect(400);
    expect(broken.body.error.code).toBe('VALIDATION_FAILED');
    const noBoundary = await api.http
      .post('/api/deposits')
      .set(alice.auth)
      .set('Content-Type', 'multipart/form-data')
      .send('hello')
      .expect(400);
    expect(noBoundary.body.error.code).toBe('VALIDATION_FAILED');
    const missing = await postDeposit(api, alice.auth, bankDepositFields(10_000), null).expect(400);
    expect(missing.body.error).toMatchObject({ code: 'VALIDATION_FAILED', field: 'screenshot' });
    expect(await counts()).toEqual(before);
  });

  describe('metadata (issue 33: Exif and its GPS position are never kept)', () => {
    const red = (rgb: number[]) => rgb[0]! > 200 && rgb[1]! < 60 && rgb[2]! < 60;
    const blue = (rgb: number[]) => rgb[2]! > 200 && rgb[0]! < 60 && rgb[1]! < 60;
    /** A served image: no Exif, XMP, ICC or comment, upright (20 × 40, red on top). */
    const expectClean = async (bytes: Buffer) => {
      expect(await inspect(bytes)).toMatchObject({
        format: 'jpeg',
        width: 20,
        height: 40,
        orientation: undefined,
        exif: undefined,
        xmp: undefined,
        icc: undefined,
        comments: undefined,
        exifMarker: false,
      });
      expect(bytes.includes('TestPhone')).toBe(false);
      expect(red(await pixelAt(bytes, 10, 5))).toBe(true);
      expect(blue(await pixelAt(bytes, 10, 34))).toBe(true);
    };

    it('the test photo carries what a phone writes: GPS, camera, orientation, profile, XMP', async () => {
      const photo = await phonePhoto();
      const m = await inspect(photo);
      expect(m).toMatchObject({ width: 40, height: 20, orientation: 6, exifMarker: true });
      expect(exifTags(m.exif!).has(GPS_IFD_TAG)).toBe(true);
      expect(m.icc).toBeDefined();
      expect(m.xmp).toBeDefined();
      expect(photo.includes('TestPhone')).toBe(true);
    });

    it('a deposit screenshot is stored without Exif or GPS, upright, at its size', async () => {
      const photo = await phonePhoto();
      const res = await send(photo, 'IMG_0001.jpg').expect(201);
      for (const who of [alice.auth, opsAuth]) {
        const got = await api.http
          .get(`/api/uploads/${res.body.screenshotId}`)
          .set(who)
          .expect(200);
        expect(got.headers['content-type']).toBe('image/jpeg');
        await expectClean(got.body as Buffer);
      }
      // And on disk: the file itself holds no trace of the photo's metadata.
      const onDisk = fs.readFileSync(path.join(api.uploadsDir, res.body.screenshotId as string));
      await expectClean(onDisk);
      const { rows } = await t.db.query<{ size: number }>(
        'SELECT size FROM uploads WHERE id = $1',
        [res.body.screenshotId],
      );
      expect(rows[0]!.size).toBe(onDisk.length);
    });

    it('identity photos are stored without Exif or GPS, upright, at their size', async () => {
      const carol = await registerUser(api, 'upl');
      const photo = await phonePhoto();
      await postKyc(api, carol.auth, undefined, { front: photo, back: photo }).expect(201);
      const { rows } = await t.db.query<{ front_id: string; back_id: string }>(
        'SELECT front_id, back_id FROM kyc_submissions WHERE user_id = $1',
        [Number(carol.user.id)],
      );
      for (const id of [rows[0]!.front_id, rows[0]!.back_id]) {
        const got = await api.http.get(`/api/uploads/${id}`).set(opsAuth).expect(200);
        await expectClean(got.body as Buffer);
      }
    });
  });

  describe('decompression bombs (issue 33)', () => {
    it.each([
      [
        'a PNG of a hundred bytes declaring 50 000 × 50 000 pixels',
        () => pngDeclaring(50_000, 50_000),
      ],
      ['a JPEG declaring 60 000 × 60 000 pixels', () => jpegDeclaring(images.jpeg, 60_000, 60_000)],
      [
        'a PNG declaring 10 000 × 5 001 pixels, just over 50 megapixels',
        () => pngDeclaring(10_000, 5_001),
      ],
    ])('refuses %s with 400 UPLOAD_TOO_MANY_PIXELS and keeps nothing', async (_n, make) => {
      const bomb = make();
      expect(bomb.length).toBeLessThan(5_000);
      const before = await counts();
      const res = await send(bomb, 'bomb.png').expect(400);
      expect(res.body.error).toMatchObject({ code: 'UPLOAD_TOO_MANY_PIXELS', field: 'screenshot' });
      expect(await counts()).toEqual(before);
    });

    it('an identity check with a bomb for its back photo is refused whole, naming it', async () => {
      const dave = await registerUser(api, 'upl');
      const before = await counts();
      const res = await postKyc(api, dave.auth, undefined, {
        front: images.jpeg,
        back: pngDeclaring(50_000, 50_000),
      }).expect(400);
      expect(res.body.error).toMatchObject({ code: 'UPLOAD_TOO_MANY_PIXELS', field: 'back' });
      expect(await counts()).toEqual(before);
      const kyc = await api.http.get('/api/kyc').set(dave.auth).expect(200);
      expect(kyc.body.status).toBe('none');
    });

    it('an image whose pixels do not decode is 400 UPLOAD_INVALID, and nothing is kept', async () => {
      const before = await counts();
      // A JPEG cut in half: its header is whole, its pixels are not.
      const photo = await phonePhoto();
      const res = await send(photo.subarray(0, photo.length >> 1), 'cut.jpg').expect(400);
      expect(res.body.error).toMatchObject({ code: 'UPLOAD_INVALID', field: 'screenshot' });
      expect(await counts()).toEqual(before);
    });
  });
});
