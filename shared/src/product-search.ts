import { productNames } from './product-names';

/**
 * Text as search compares it, whatever the script or keyboard: NFKC (full-width ＢＴＣ → BTC,
 * half-width ｺｲﾝ → コイン), lower case (ß → ss), Latin letters without their accents (Vàng,
 * Đô la and Pétrole found by "vang", "do la", "petrole"), hiragana as katakana, and nothing but
 * letters, digits and the marks of other scripts (Thai vowels and tones stay): spaces, slashes
 * and other punctuation go, so "BTC/", "/usdt" and "s&p" match codes as they are written.
 */
export function foldForSearch(text: string): string {
  return text
    .normalize('NFKC')
    .toLowerCase()
    .replace(/ß/g, 'ss')
    .replace(/đ/g, 'd')
    .normalize('NFD')
    .replace(/(\p{Script=Latin})\p{M}+/gu, '$1')
    .normalize('NFC')
    .replace(/[\u3041-\u3096]/g, (c) => String.fromCharCode(c.charCodeAt(0) + 0x60))
    .replace(/[^\p{L}\p{N}\p{M}]+/gu, '');
}

const haystacks = new Map<string, string[]>();

/** The folded texts a product is found by: its id, its code and its name in every language. */
function haystackOf(product: { id: string; name: string }): string[] {
  const key = `${product.id}\u0000${product.name}`;
  let texts = haystacks.get(key);
  if (!texts) {
    const names = Object.values(productNames[product.id] ?? {});
    texts = [...new Set([product.id, product.name, ...names].map(foldForSearch))];
    haystacks.set(key, texts);
  }
  return texts;
}

/**
 * The one product search, on the server (`GET /api/market/products?q=`) and in the client's
 * list: the query, folded, is part of the product's code or of its name in any of the ten
 * languages. "黄金", "gold" and "金" find XAUUSD; "btc", "BTC/" and "Bitcoin" find BTCUSDT. An
 * empty query (or one of punctuation only) finds everything.
 */
export function productMatches(product: { id: string; name: string }, query: string): boolean {
  const q = foldForSearch(query);
  return q === '' || haystackOf(product).some((text) => text.includes(q));
}
