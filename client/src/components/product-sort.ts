/**
 * How the product list can be narrowed and ordered: by category, and by name, price, 24 h change
 * or 24 h volume. Pure, so the orders are tested apart from React.
 */
import type { Product } from '@shared/product';

/** The categories, in the order their tabs appear (those without a product are left out). */
export const productCategories = [
  'crypto',
  'forex',
  'metals',
  'energy',
  'index',
] as const satisfies readonly Product['category'][];

export const productSorts = ['default', 'name', 'price', 'change', 'volume'] as const;
export type ProductSort = (typeof productSorts)[number];

interface Sortable {
  id: string;
  name: string;
  price: string | null;
  changePct: string;
  volume: string;
}

/** A decimal string as a number for ordering; a missing or unreadable figure sorts last. */
const figure = (value: string | null): number => {
  const n = value === null ? NaN : Number(value);
  return Number.isFinite(n) ? n : -Infinity;
};

/**
 * The products in the chosen order: names A→Z (in the reader's language, by `nameOf`), figures
 * highest first (the biggest gainers, the most traded), ties by name. "default" keeps the
 * server's order. Returns a new array.
 */
export function sortProducts<T extends Sortable>(
  products: readonly T[],
  sort: ProductSort,
  nameOf: (product: T) => string = (p) => p.name,
  lang?: string,
): T[] {
  if (sort === 'default') return [...products];
  const collator = new Intl.Collator(lang, { numeric: true, sensitivity: 'base' });
  const byName = (a: T, b: T) => collator.compare(nameOf(a), nameOf(b));
  if (sort === 'name') return [...products].sort(byName);
  const key =
    sort === 'price'
      ? (p: T) => figure(p.price)
      : sort === 'change'
        ? (p: T) => figure(p.changePct)
        : (p: T) => figure(p.volume);
  return [...products].sort((a, b) => {
    const d = key(b) - key(a);
    return d !== 0 && !Number.isNaN(d) ? d : byName(a, b);
  });
}

/** The categories that have products, in their tab order. */
export function categoriesOf(products: readonly { category: Product['category'] }[]) {
  const present = new Set(products.map((p) => p.category));
  return productCategories.filter((c) => present.has(c));
}
