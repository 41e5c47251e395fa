import sharp from 'sharp';
import { AppError, badRequest } from '@server/platform/http/errors';
import type { ImageMime } from './upload.repo';

/**
 * What an uploaded image becomes before it is stored (DECISIONS.md, Privacy and names): decoded
 * and encoded again, so nothing of the file but its pixels is kept. A phone's photo carries Exif
 * (the GPS position where it was taken, the device, the time), XMP and comments; an identity
 * photo or a bank screenshot must not hand those to whoever reviews it, nor keep them on disk.
 */

/**
 * Most pixels an upload may declare: 50 megapixels (8160 × 6120), above any phone camera's
 * photo that fits in 5 MB. Checked on the header before a pixel is decoded: a small PNG that
 * declares 50 000 × 50 000 pixels (2.5 gigapixels, 10 GB as RGBA) would otherwise be decoded
 * into memory.
 */
export const UPLOAD_MAX_PIXELS = 50_000_000;

/**
 * Longest side of a stored image. An ID card or a screenshot stays legible far below it (a
 * 12-megapixel photo, 4032 × 3024, keeps its size); larger ones are scaled down, which also bounds
 * what a review screen loads.
 */
export const STORED_MAX_SIDE = 4096;

/** JPEG and WebP quality of stored images: no visible loss on text and faces, a third of q100. */
const QUALITY = 85;

// Each upload is decoded once: libvips's operation cache would only hold decoded images in
// memory after their request has ended.
sharp.cache(false);

/**
 * The pixels of `input`, upright and at most `STORED_MAX_SIDE` on a side, encoded `as` without
 * metadata. `limitInputPixels` again, in case the decoder finds other dimensions than the header
 * said. Animated WebP: the first frame only (sharp's default). Warnings (a truncated file) throw.
 */
function encode(input: Buffer, as: ImageMime): Promise<Buffer> {
  const p = sharp(input, { limitInputPixels: UPLOAD_MAX_PIXELS, failOn: 'warning' })
    .autoOrient()
    .resize({
      width: STORED_MAX_SIDE,
      height: STORED_MAX_SIDE,
      fit: 'inside',
      withoutEnlargement: true,
    });
  if (as === 'image/jpeg')
    // JPEG has no transparency: a transparent screenshot goes on white, not black.
    return p.flatten({ background: '#ffffff' }).jpeg({ quality: QUALITY }).toBuffer();
  if (as === 'image/webp') return p.webp({ quality: QUALITY }).toBuffer();
  return p.png().toBuffer();
}

const mimeOfFormat: Record<string, ImageMime> = {
  jpeg: 'image/jpeg',
  png: 'image/png',
  webp: 'image/webp',
};

/**
 * For a file stored before uploads were cleaned (scrub.ts): the same image encoded again in its
 * own type without metadata, or null when it holds none (Exif, XMP, IPTC, an ICC profile, a
 * comment or text chunk, an orientation): a clean file is not encoded twice, which would only
 * cost quality. Throws on a file that is no JPEG, PNG or WebP or does not decode.
 */
export async function scrubbed(input: Buffer): Promise<Buffer | null> {
  const m = await sharp(input, { limitInputPixels: UPLOAD_MAX_PIXELS }).metadata();
  const mime = mimeOfFormat[m.format];
  if (!mime) throw new Error(`not a JPEG, PNG or WebP image (${m.format})`);
  const holds = [m.exif, m.xmp, m.iptc, m.icc, m.tifftagPhotoshop, m.orientation].some(
    (x) => x !== undefined,
  );
  return holds || m.comments?.length ? encode(input, mime) : null;
}

/** The refusal of an image whose declared dimensions are absurd (a decompression bomb). */
const tooManyPixels = (field: string, width: number, height: number) =>
  badRequest(
    'UPLOAD_TOO_MANY_PIXELS',
    `The image declares ${width} × ${height} pixels; at most ${UPLOAD_MAX_PIXELS} are taken`,
    field,
  );

const notAnImage = (field: string) =>
  badRequest('UPLOAD_INVALID', 'Only JPEG, PNG or WebP images', field);

/**
 * The image's pixels, upright, in a fresh file of the same type (a JPEG stays a JPEG, a
 * screenshot's PNG keeps its sharp text) without any metadata: sharp writes none unless asked,
 * and the Exif orientation is applied to the pixels before it goes. A PNG or WebP that would be
 * stored larger than `maxBytes` (a photo saved as PNG) is stored as a JPEG instead. 400
 * UPLOAD_TOO_MANY_PIXELS past `UPLOAD_MAX_PIXELS` (from the header, before decoding), 400
 * UPLOAD_INVALID when the pixels do not decode, 413 UPLOAD_TOO_LARGE when even the JPEG is over
 * `maxBytes`.
 */
export async function cleanImage(
  input: Buffer,
  mime: ImageMime,
  field: string,
  maxBytes: number,
): Promise<{ bytes: Buffer; mime: ImageMime }> {
  let width: number;
  let height: number;
  try {
    // The header only: `limitInputPixels: false` so that the size is ours to judge and to name.
    const meta = await sharp(input, { limitInputPixels: false }).metadata();
    width = meta.width;
    height = meta.height;
  } catch {
    throw notAnImage(field);
  }
  if (!(width > 0 && height > 0)) throw notAnImage(field);
  if (width * height > UPLOAD_MAX_PIXELS) throw tooManyPixels(field, width, height);

  try {
    let bytes = await encode(input, mime);
    let stored = mime;
    if (bytes.length > maxBytes && mime !== 'image/jpeg') {
      bytes = await encode(input, 'image/jpeg');
      stored = 'image/jpeg';
    }
    if (bytes.length > maxBytes)
      throw new AppError(413, 'UPLOAD_TOO_LARGE', 'The image is too large once stored', field);
    return { bytes, mime: stored };
  } catch (err) {
    if (err instanceof AppError) throw err;
    throw notAnImage(field);
  }
}
