import { randomBytes } from 'node:crypto';
import sharp, { type Sharp } from 'sharp';
import { describe, expect, it } from 'vitest';
import { inspect, pixelAt } from '@tests/support/images';
import { STORED_MAX_SIDE, UPLOAD_MAX_PIXELS, cleanImage } from './image';

/** Noise compresses badly: a PNG of it is large, as a photo saved as PNG is. */
const noise = (width: number, height: number) =>
  sharp(randomBytes(width * height * 3), { raw: { width, height, channels: 3 } });

describe('cleanImage', () => {
  it('keeps the type and the size of an ordinary image', async () => {
    for (const [mime, make] of [
      ['image/png', (s: Sharp) => s.png()],
      ['image/jpeg', (s: Sharp) => s.jpeg()],
      ['image/webp', (s: Sharp) => s.webp()],
    ] as const) {
      const input = await make(noise(64, 48)).toBuffer();
      const out = await cleanImage(input, mime, 'f', 5_000_000);
      expect(out.mime).toBe(mime);
      expect(await inspect(out.bytes)).toMatchObject({ width: 64, height: 48, exif: undefined });
    }
  });

  it(`scales an image down to ${STORED_MAX_SIDE} px on its longest side`, async () => {
    const input = await sharp({
      create: { width: 6000, height: 30, channels: 3, background: '#808080' },
    })
      .png()
      .toBuffer();
    const out = await cleanImage(input, 'image/png', 'f', 5_000_000);
    expect(await inspect(out.bytes)).toMatchObject({ width: STORED_MAX_SIDE, height: 20 });
  });

  it('stores a PNG that would be over the byte limit as a JPEG, transparency on white', async () => {
    const input = await noise(300, 200).ensureAlpha(0).png().toBuffer();
    expect(input.length).toBeGreaterThan(100_000);
    const out = await cleanImage(input, 'image/png', 'f', 100_000);
    expect(out.mime).toBe('image/jpeg');
    expect(out.bytes.length).toBeLessThanOrEqual(100_000);
    expect(await inspect(out.bytes)).toMatchObject({ format: 'jpeg', width: 300, height: 200 });
    // Fully transparent pixels become white, not black.
    expect(Math.min(...(await pixelAt(out.bytes, 150, 100)))).toBeGreaterThan(240);
  });

  it('refuses with 413 UPLOAD_TOO_LARGE what is over the limit even as a JPEG', async () => {
    const input = await noise(300, 200).jpeg({ quality: 100 }).toBuffer();
    await expect(cleanImage(input, 'image/jpeg', 'shot', 1_000)).rejects.toMatchObject({
      status: 413,
      code: 'UPLOAD_TOO_LARGE',
      field: 'shot',
    });
  });

  it('refuses by the header what declares more than the pixel limit', async () => {
    expect(UPLOAD_MAX_PIXELS).toBe(50_000_000);
    const input = await sharp({
      create: { width: 10, height: 10, channels: 3, background: '#fff' },
    })
      .png()
      .toBuffer();
    // Patch IHDR's width and height (bytes 16-23): 8 000 × 6 251 = 50 008 000 pixels.
    input.writeUInt32BE(8_000, 16);
    input.writeUInt32BE(6_251, 20);
    await expect(cleanImage(input, 'image/png', 'front', 5_000_000)).rejects.toMatchObject({
      status: 400,
      code: 'UPLOAD_TOO_MANY_PIXELS',
      field: 'front',
    });
  });
});
