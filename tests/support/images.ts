import zlib from 'node:zlib';
import sharp from 'sharp';

/**
 * Images for the upload tests, made here rather than kept as fixture files: a phone's photo with
 * an Exif GPS block and a turned orientation, and decompression bombs (a few hundred bytes that
 * declare billions of pixels).
 */

/** Where the test photo says it was taken (Exif rationals: degrees, minutes, seconds). */
export const GPS = {
  GPSLatitudeRef: 'N',
  GPSLatitude: '51/1 30/1 3230/100',
  GPSLongitudeRef: 'W',
  GPSLongitude: '0/1 7/1 4366/100',
};

/**
 * A JPEG as a phone writes it: 40 × 20 pixels stored, red on the left half and blue on the right,
 * with Exif orientation 6 (turn 90° clockwise to view: 20 × 40, red on top), the camera's make and
 * a GPS position, a Display P3 colour profile and an XMP packet.
 */
export async function phonePhoto(): Promise<Buffer> {
  const half = { width: 20, height: 20, channels: 3 } as const;
  const red = await sharp({ create: { ...half, background: '#ff0000' } })
    .raw()
    .toBuffer();
  const blue = await sharp({ create: { ...half, background: '#0000ff' } })
    .raw()
    .toBuffer();
  return sharp({ create: { width: 40, height: 20, channels: 3, background: '#000000' } })
    .composite([
      { input: red, raw: half, left: 0, top: 0 },
      { input: blue, raw: half, left: 20, top: 0 },
    ])
    .jpeg({ quality: 95 })
    .withMetadata({ orientation: 6 })
    .withExif({ IFD0: { Make: 'TestPhone', Model: 'Model 7' }, IFD3: GPS })
    .withIccProfile('p3')
    .withXmp(
      '<x:xmpmeta xmlns:x="adobe:ns:meta/"><rdf:RDF xmlns:rdf="http://www.w3.org/1999/02/22-rdf-syntax-ns#"><rdf:Description xmlns:xmp="http://ns.adobe.com/xap/1.0/" xmp:CreatorTool="TestPhone Camera"/></rdf:RDF></x:xmpmeta>',
    )
    .toBuffer();
}

/**
 * The tags of an Exif block's first directory (IFD0), read from its TIFF structure; 0x8825 is the
 * pointer to the GPS directory, 0x0112 the orientation.
 */
export function exifTags(exif: Buffer): Set<number> {
  const tiff = exif.subarray(exif.indexOf('Exif\0\0') + 6);
  const le = tiff.toString('latin1', 0, 2) === 'II';
  const u16 = (at: number) => (le ? tiff.readUInt16LE(at) : tiff.readUInt16BE(at));
  const u32 = (at: number) => (le ? tiff.readUInt32LE(at) : tiff.readUInt32BE(at));
  const ifd0 = u32(4);
  const tags = new Set<number>();
  for (let i = 0; i < u16(ifd0); i++) tags.add(u16(ifd0 + 2 + i * 12));
  return tags;
}
export const GPS_IFD_TAG = 0x8825;

/** What a stored image holds besides its pixels, and its size as decoded. */
export async function inspect(bytes: Buffer) {
  const m = await sharp(bytes).metadata();
  return {
    format: m.format,
    width: m.width,
    height: m.height,
    orientation: m.orientation,
    exif: m.exif,
    xmp: m.xmp,
    icc: m.icc,
    comments: m.comments,
    /** An Exif block anywhere in the file (a JPEG's APP1, a PNG's eXIf, a WebP's EXIF chunk). */
    exifMarker: bytes.includes('Exif\0\0') || bytes.includes('eXIf') || bytes.includes('EXIF'),
  };
}

/** The colour at (x, y) of a decoded image, as [r, g, b]. */
export async function pixelAt(bytes: Buffer, x: number, y: number): Promise<number[]> {
  const { data, info } = await sharp(bytes)
    .removeAlpha()
    .raw()
    .toBuffer({ resolveWithObject: true });
  const at = (y * info.width + x) * info.channels;
  return [data[at]!, data[at + 1]!, data[at + 2]!];
}

const pngChunk = (type: string, data: Buffer) => {
  const length = Buffer.alloc(4);
  length.writeUInt32BE(data.length);
  const body = Buffer.concat([Buffer.from(type, 'latin1'), data]);
  const crc = Buffer.alloc(4);
  crc.writeUInt32BE(zlib.crc32(body));
  return Buffer.concat([length, body, crc]);
};

/**
 * A PNG of about a hundred bytes whose header declares `width` × `height` RGB pixels, with a little
 * compressed data after it: what a decoder would start to fill memory for.
 */
export function pngDeclaring(width: number, height: number): Buffer {
  const header = Buffer.alloc(13);
  header.writeUInt32BE(width, 0);
  header.writeUInt32BE(height, 4);
  header[8] = 8; // bit depth
  header[9] = 2; // RGB
  return Buffer.concat([
    Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]),
    pngChunk('IHDR', header),
    pngChunk('IDAT', zlib.deflateSync(Buffer.alloc(4096))),
    pngChunk('IEND', Buffer.alloc(0)),
  ]);
}

/** A real JPEG whose frame header (SOF0) is changed to declare `width` × `height` pixels. */
export function jpegDeclaring(jpeg: Buffer, width: number, height: number): Buffer {
  const out = Buffer.from(jpeg);
  const sof = out.indexOf(Buffer.from([0xff, 0xc0]));
  if (sof < 0) throw new Error('no SOF0 marker');
  out.writeUInt16BE(height, sof + 5);
  out.writeUInt16BE(width, sof + 7);
  return out;
}
