/**
 * Photos are made small on the phone before they are sent: a camera picture is often 4-12 MB
 * and 4000 px wide, the server takes 5 MB at most, and a reviewer needs far fewer pixels.
 */

/** The longest side kept; text on an ID card stays legible at this size. */
export const IMAGE_MAX_SIDE = 1600;
/** A picture already this small, of a type the server takes, is sent untouched. */
export const IMAGE_KEEP_BYTES = 1_000_000;
/** The server's limit (uploads: 5 MB). */
export const UPLOAD_MAX_BYTES = 5 * 1024 * 1024;
const JPEG_QUALITY = 0.85;

/** Types the server accepts (checked there again by magic bytes). */
export const acceptedTypes: ReadonlySet<string> = new Set([
  'image/jpeg',
  'image/png',
  'image/webp',
]);

/** Why a picture cannot be used; each has a text under `wallet.image`. */
export class ImageProblem extends Error {
  override readonly name = 'ImageProblem';
  constructor(readonly reason: 'unreadable' | 'tooLarge') {
    super(reason);
  }
}

/** `width × height` scaled down (never up) so the longest side is at most `max`. */
export function scaledSize(width: number, height: number, max = IMAGE_MAX_SIDE) {
  const longest = Math.max(width, height);
  if (longest <= max) return { width, height };
  const factor = max / longest;
  return {
    width: Math.max(1, Math.round(width * factor)),
    height: Math.max(1, Math.round(height * factor)),
  };
}

/** Whether a picture of this size, type and pixel size can go as it is. */
export function canSendAsIs(file: { size: number; type: string }, width: number, height: number) {
  return (
    acceptedTypes.has(file.type) &&
    file.size <= IMAGE_KEEP_BYTES &&
    Math.max(width, height) <= IMAGE_MAX_SIDE
  );
}

/**
 * The picture to upload: the file itself when it is already small, else a JPEG redrawn on a
 * canvas at most IMAGE_MAX_SIDE px on its longest side (camera rotation applied). Formats the
 * server does not take (HEIC on an iPhone, GIF) are redrawn too, when the browser can read them.
 */
export async function prepareImage(file: File): Promise<Blob> {
  let bitmap: ImageBitmap;
  try {
    bitmap = await createImageBitmap(file, { imageOrientation: 'from-image' });
  } catch {
    throw new ImageProblem('unreadable');
  }
  try {
    if (canSendAsIs(file, bitmap.width, bitmap.height)) return file;
    const { width, height } = scaledSize(bitmap.width, bitmap.height);
    const canvas = document.createElement('canvas');
    canvas.width = width;
    canvas.height = height;
    const context = canvas.getContext('2d');
    if (!context) throw new ImageProblem('unreadable');
    // JPEG has no transparency: a transparent screenshot gets white, not black, behind it.
    context.fillStyle = '#ffffff';
    context.fillRect(0, 0, width, height);
    context.drawImage(bitmap, 0, 0, width, height);
    const blob = await new Promise<Blob | null>((resolve) =>
      canvas.toBlob(resolve, 'image/jpeg', JPEG_QUALITY),
    );
    if (!blob) throw new ImageProblem('unreadable');
    // A small, accepted original that re-encoding made larger is better sent as it is.
    const original = acceptedTypes.has(file.type) && file.size <= blob.size ? file : blob;
    if (original.size > UPLOAD_MAX_BYTES) throw new ImageProblem('tooLarge');
    return original;
  } finally {
    bitmap.close();
  }
}
