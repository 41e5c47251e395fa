/**
 * What an uploaded image may be (deposit screenshots, identity photos): the file parts of the
 * forms declare it (wallet/endpoints.ts, kyc/endpoints.ts) and the server holds them to it.
 */
export const imageTypes = ['image/jpeg', 'image/png', 'image/webp'] as const;

/** Largest accepted image, in bytes (5 MB). */
export const IMAGE_MAX_BYTES = 5 * 1024 * 1024;

/** An image part's accepted types and size, spread into a form's part: `{ name, count, ...imagePart }`. */
export const imagePart = { accept: imageTypes, maxBytes: IMAGE_MAX_BYTES } as const;
