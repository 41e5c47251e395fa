import { describe, expect, it } from 'vitest';
import { canSendAsIs, IMAGE_MAX_SIDE, scaledSize } from './image';

describe('scaledSize', () => {
  it('keeps a picture within the limit as it is', () => {
    expect(scaledSize(800, 600)).toEqual({ width: 800, height: 600 });
    expect(scaledSize(IMAGE_MAX_SIDE, 10)).toEqual({ width: IMAGE_MAX_SIDE, height: 10 });
  });

  it('scales the longest side down to the limit, keeping the shape', () => {
    expect(scaledSize(4000, 3000)).toEqual({ width: 1600, height: 1200 });
    expect(scaledSize(3000, 4000)).toEqual({ width: 1200, height: 1600 });
    expect(scaledSize(4000, 1, 1600)).toEqual({ width: 1600, height: 1 });
  });
});

describe('canSendAsIs', () => {
  it('sends small pictures of accepted types untouched', () => {
    expect(canSendAsIs({ size: 50_000, type: 'image/png' }, 390, 844)).toBe(true);
    expect(canSendAsIs({ size: 50_000, type: 'image/webp' }, 390, 844)).toBe(true);
  });

  it('redraws large, oversized or foreign pictures', () => {
    expect(canSendAsIs({ size: 3_000_000, type: 'image/jpeg' }, 1000, 1000)).toBe(false);
    expect(canSendAsIs({ size: 50_000, type: 'image/jpeg' }, 4000, 3000)).toBe(false);
    expect(canSendAsIs({ size: 50_000, type: 'image/heic' }, 100, 100)).toBe(false);
    expect(canSendAsIs({ size: 50_000, type: 'image/gif' }, 100, 100)).toBe(false);
  });
});
