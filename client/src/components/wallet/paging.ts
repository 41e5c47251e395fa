import type { Page } from '@shared/wallet';

/** Rows of a keyset-paged list: ids are decimal strings, newest (largest) first. */
export interface Row {
  id: string;
}

const older = (a: string, b: string) => Number(a) < Number(b);

/** Appends a further page, dropping rows already shown (a row may shift between pages). */
export function appendPage<T extends Row>(items: readonly T[], page: Page<T>): T[] {
  const seen = new Set(items.map((i) => i.id));
  return [...items, ...page.items.filter((i) => !seen.has(i.id))];
}

/**
 * Takes a freshly loaded first page into a list that may hold further pages: new and changed
 * rows come from the fresh page, the older pages already loaded stay below it, and the cursor
 * stays where loading had got to.
 */
export function mergeFirstPage<T extends Row>(
  items: readonly T[],
  next: string | null,
  first: Page<T>,
): { items: T[]; next: string | null } {
  const oldest = first.items.at(-1);
  if (!oldest || first.nextCursor === null) return { items: first.items, next: first.nextCursor };
  const tail = items.filter((i) => older(i.id, oldest.id));
  return tail.length > 0
    ? { items: [...first.items, ...tail], next }
    : { items: first.items, next: first.nextCursor };
}
