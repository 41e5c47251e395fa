import { useMemo } from 'react';
import { useUser } from '@client/state';

/**
 * The products a user opened last on the trade screen, most recent first, kept on this device
 * per user (localStorage, like the ticket's last choice): the quick switcher's "recent" chips.
 * Whatever is stored is read defensively: a bad value is an empty list, never a broken screen.
 */

/** How many recent products are kept. */
export const RECENT_MAX = 6;

const keyOf = (userId: string | number) => `recent-products:${userId}`;

/** A product id as the API spells them (letters, digits and a few marks), else not one. */
const isId = (v: unknown): v is string => typeof v === 'string' && /^[\w.:-]{1,40}$/.test(v);

/** The stored list, cleaned: ids only, no repeats, at most RECENT_MAX; anything else is []. */
export function parseRecent(raw: string | null | undefined): string[] {
  if (!raw) return [];
  try {
    const value: unknown = JSON.parse(raw);
    if (!Array.isArray(value)) return [];
    return [...new Set(value.filter(isId))].slice(0, RECENT_MAX);
  } catch {
    return [];
  }
}

/** `id` opened now: first in the list, once, the oldest dropped beyond `max`. */
export function addRecent(list: readonly string[], id: string, max = RECENT_MAX): string[] {
  return [id, ...list.filter((p) => p !== id)].slice(0, max);
}

/**
 * The switcher's chips: the favourites first (in their order), then the recent products that
 * are not favourites (most recent first), each once; the current product is among them (it was
 * recorded when opened). Only products that exist (`known`) are kept: a delisted id is dropped.
 */
export function switcherOrder(
  favourites: readonly string[],
  recent: readonly string[],
  known: ReadonlySet<string>,
): string[] {
  return [...new Set([...favourites, ...recent])].filter((id) => known.has(id));
}

function store(): Storage | null {
  try {
    return typeof localStorage === 'undefined' ? null : localStorage;
  } catch {
    return null;
  }
}

export function readRecent(
  userId: string | number,
  storage: Pick<Storage, 'getItem'> | null = store(),
): string[] {
  try {
    return parseRecent(storage?.getItem(keyOf(userId)));
  } catch {
    return [];
  }
}

/** Records `productId` as opened now; returns the new list. */
export function recordRecent(
  userId: string | number,
  productId: string,
  storage: Pick<Storage, 'getItem' | 'setItem'> | null = store(),
): string[] {
  if (!isId(productId)) return readRecent(userId, storage);
  const next = addRecent(readRecent(userId, storage), productId);
  try {
    storage?.setItem(keyOf(userId), JSON.stringify(next));
  } catch {
    // A full or blocked storage only loses the convenience.
  }
  return next;
}

/** The signed-in user's recent products, with `productId` recorded as opened (none for a guest). */
export function useRecentProducts(productId: string): string[] {
  const userId = useUser()?.id ?? null;
  // Recorded while rendering: the write is idempotent (the product is first once, however often).
  return useMemo(
    () => (userId === null ? [] : recordRecent(userId, productId)),
    [userId, productId],
  );
}

/** Open positions per product in one mode (the mode the trade screen shows). */
export function openCounts(
  orders: readonly { productId: string; status: string; mode: string; id: string }[],
  mode: string,
): Map<string, number> {
  const seen = new Set<string>();
  const counts = new Map<string, number>();
  for (const o of orders) {
    if (o.status !== 'open' || o.mode !== mode || seen.has(o.id)) continue;
    seen.add(o.id);
    counts.set(o.productId, (counts.get(o.productId) ?? 0) + 1);
  }
  return counts;
}
