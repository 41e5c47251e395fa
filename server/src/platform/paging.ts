import type { Page } from '@shared/wallet/model';

/**
 * Keyset paging, newest first: repositories fetch `limit + 1` rows with `id < cursor` ordered by
 * id descending; the extra row only says whether another page exists. Cursors are ids, so a page
 * never shifts when new rows arrive.
 */
export function toPage<R extends { id: number }, T>(
  rows: readonly R[],
  limit: number,
  present: (row: R) => T,
): Page<T> {
  const items = rows.slice(0, limit);
  const more = rows.length > limit;
  return {
    items: items.map(present),
    nextCursor: more && items.length ? String(items[items.length - 1]!.id) : null,
  };
}

export interface PageRequest {
  limit: number;
  cursor?: number;
}
