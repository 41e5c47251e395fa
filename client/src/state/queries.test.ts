import { describe, expect, it } from 'vitest';
import { ApiError } from '@client/api/client';
import { flattenPages } from './paged';
import { shouldRetry } from './query-client';

describe('the query defaults', () => {
  it('retries once what may pass (no answer, a 5xx), never a 4xx, a timeout or a second time', () => {
    expect(shouldRetry(0, new ApiError('NETWORK', 'no answer'))).toBe(true);
    expect(shouldRetry(0, new ApiError('INTERNAL', 'HTTP 503', 503))).toBe(true);
    expect(shouldRetry(1, new ApiError('NETWORK', 'no answer'))).toBe(false);
    expect(shouldRetry(0, new ApiError('NOT_FOUND', 'gone', 404))).toBe(false);
    expect(shouldRetry(0, new ApiError('UNAUTHORIZED', 'who', 401))).toBe(false);
    expect(shouldRetry(0, new ApiError('TIMEOUT', 'slow'))).toBe(false);
    expect(shouldRetry(0, new Error('a bug'))).toBe(false);
  });

  it('shows the pages of a list as one, a row that moved to the next page once', () => {
    const row = (id: string) => ({ id });
    const data = {
      pages: [
        { items: [row('9'), row('8')], nextCursor: '8' },
        { items: [row('8'), row('7')], nextCursor: null },
      ],
      pageParams: [null, '8'],
    };
    expect(flattenPages(data).map((r) => r.id)).toEqual(['9', '8', '7']);
    expect(flattenPages(undefined)).toEqual([]);
  });
});
