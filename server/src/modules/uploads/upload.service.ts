import { createHash, randomBytes } from 'node:crypto';
import fs from 'node:fs/promises';
import path from 'node:path';
import { fileTypeFromBuffer } from 'file-type';
import type { Db, Queryable } from '@infra/db';
import { IMAGE_MAX_BYTES } from '@shared/uploads/values';
import { badRequest, notFound } from '@server/platform/http/errors';
import type { ReceivedFile } from '@server/platform/http/multipart';
import { insertUpload, uploadById, type ImageMime } from './upload.repo';
import { cleanImage } from './image';

const extensions: Record<ImageMime, string> = {
  'image/jpeg': 'jpg',
  'image/png': 'png',
  'image/webp': 'webp',
};

/** A file part as the multipart parser hands it over; its name and declared type are ignored. */
export type IncomingFile = ReceivedFile;

/** An image whose bytes were checked and cleaned, written to disk under a fresh random id. */
export interface StagedImage {
  id: string;
  /** Of the stored image (a large PNG photo is stored as a JPEG). */
  mime: ImageMime;
  /** Of the stored image. */
  size: number;
  /** Of the bytes as sent: lets an idempotent request tell one screenshot from another. */
  sha256: string;
}

/** Who asks for a file: its owner may see it, an operator may see any. */
export type Viewer = { operator: true } | { userId: number };

const idPattern = /^[A-Za-z0-9_-]{22}$/;

/**
 * Images users upload (deposit screenshots, identity photos). Checked by their magic bytes,
 * decoded and encoded again without their metadata (image.ts: no Exif, no GPS position), stored
 * under DATA_DIR/uploads with server-generated names (never the client's file name, never a
 * static folder), and served only to their owner and operators.
 */
export function createUploadService(db: Db, dir: string) {
  const fileOf = (id: string) => path.join(dir, id);
  const discard = async (images: readonly StagedImage[]) => {
    await Promise.all(images.map((i) => fs.rm(fileOf(i.id), { force: true }).catch(() => {})));
  };

  return {
    /**
     * Checks each image by its bytes, cleans it (image.ts: the pixels only, upright; refused
     * before decoding when it declares too many pixels) and writes it under a random name. The
     * caller records the rows with `record` inside its own transaction, and calls `discard` when
     * that transaction fails or turns out not to need them (an idempotent replay): only a crash
     * in between can leave a file without a row, and such a file is unreachable and harmless.
     */
    async stage(files: readonly IncomingFile[]): Promise<StagedImage[]> {
      // In order, so that with two bad files the answer names the first, every time. Only the
      // three types the decoder is asked to read get to it (never SVG, GIF, HEIC or TIFF).
      const checked: { file: IncomingFile; bytes: Buffer; mime: ImageMime }[] = [];
      for (const file of files) {
        const type = await fileTypeFromBuffer(file.buffer);
        if (!type || !(type.mime in extensions))
          throw badRequest('UPLOAD_INVALID', 'Only JPEG, PNG or WebP images', file.field);
        const clean = await cleanImage(
          file.buffer,
          type.mime as ImageMime,
          file.field,
          IMAGE_MAX_BYTES,
        );
        checked.push({ file, ...clean });
      }
      await fs.mkdir(dir, { recursive: true });
      const staged: StagedImage[] = [];
      try {
        for (const { file, bytes, mime } of checked) {
          const id = randomBytes(16).toString('base64url');
          // `wx`: never overwrite; a 128-bit random id does not collide in practice.
          await fs.writeFile(fileOf(id), bytes, { flag: 'wx', mode: 0o600 });
          staged.push({
            id,
            mime,
            size: bytes.length,
            sha256: createHash('sha256').update(file.buffer).digest('hex'),
          });
        }
      } catch (err) {
        await discard(staged);
        throw err;
      }
      return staged;
    },

    async record(tx: Queryable, ownerId: number, images: readonly StagedImage[]): Promise<void> {
      for (const i of images) await insertUpload(tx, { ...i, ownerId });
    },

    /** Removes staged files that no row refers to; best effort (an orphan file is harmless). */
    discard,

    /** The image for this viewer; 404 alike for unknown ids and other people's files. */
    async read(
      id: string,
      viewer: Viewer,
    ): Promise<{ id: string; mime: ImageMime; ext: string; bytes: Buffer }> {
      const row = idPattern.test(id) ? await uploadById(db, id) : null;
      if (!row || ('userId' in viewer && row.owner_id !== viewer.userId))
        throw notFound('No such upload');
      try {
        const bytes = await fs.readFile(fileOf(row.id));
        return { id: row.id, mime: row.mime, ext: extensions[row.mime], bytes };
      } catch {
        throw notFound('No such upload');
      }
    },
  };
}

export type UploadService = ReturnType<typeof createUploadService>;
