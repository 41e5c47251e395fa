/**
 * What the visual guard does inside each page (visual-guard.ts): functions serialised into the
 * browser, so they use nothing but the page's own globals.
 */

/**
 * In the page, before the app: every date and time it formats reads as one fixed instant, and
 * every relative time as one fixed span. The records on screen carry the server's real times
 * (when the seed ran), so "Dec 6, 9:50 PM" against "Dec 10, 10:40 PM" would change a line's
 * length, or wrap it, with the day and hour of the run; the page's own clock is fixed already.
 */
export function oneInstant(fixed: number): void {
  const dtf = Intl.DateTimeFormat.prototype;
  const formatOf = Object.getOwnPropertyDescriptor(dtf, 'format')!.get!;
  Object.defineProperty(dtf, 'format', {
    configurable: true,
    get(this: Intl.DateTimeFormat) {
      const format = formatOf.call(this) as (d?: Date | number) => string;
      return () => format(fixed);
    },
  });
  const toParts = dtf.formatToParts;
  dtf.formatToParts = function (this: Intl.DateTimeFormat) {
    return toParts.call(this, fixed);
  };
  const date = Date.prototype as unknown as Record<string, (...a: unknown[]) => string>;
  for (const name of ['toLocaleString', 'toLocaleDateString', 'toLocaleTimeString']) {
    const original = date[name]!;
    date[name] = function (...args: unknown[]) {
      return original.apply(new Date(fixed), args);
    };
  }
  const relative = Intl.RelativeTimeFormat.prototype.format as (
    this: Intl.RelativeTimeFormat,
    value: number,
    unit: Intl.RelativeTimeFormatUnit,
  ) => string;
  Intl.RelativeTimeFormat.prototype.format = function (this: Intl.RelativeTimeFormat) {
    return relative.call(this, -5, 'minute');
  };
}

/** In the page: every digit reads 8, the names fixed; kept so while the page changes. */
export function normalise(names: [string, string][]): void {
  const addresses = /\b(0x[0-9a-fA-F]{8,}|T[1-9A-HJ-NP-Za-km-z]{25,})\b/g;
  const fix = (text: string) => {
    let out = text;
    for (const [from, to] of names) out = out.split(from).join(to);
    return out.replace(addresses, (m) => 'A'.repeat(m.length)).replace(/[0-9]/g, '8');
  };
  const fixNode = (node: Node) => {
    if (node.nodeType === Node.TEXT_NODE) {
      const text = node.nodeValue ?? '';
      const fixed = fix(text);
      if (fixed !== text) node.nodeValue = fixed;
      return;
    }
    const walker = document.createTreeWalker(node, NodeFilter.SHOW_TEXT);
    for (let n = walker.nextNode(); n; n = walker.nextNode()) fixNode(n);
    if (node instanceof Element)
      for (const input of node.querySelectorAll('input, textarea'))
        if (input instanceof HTMLInputElement || input instanceof HTMLTextAreaElement) {
          const fixed = fix(input.value);
          if (fixed !== input.value) input.value = fixed;
        }
  };
  fixNode(document.body);
  new MutationObserver((records) => {
    for (const r of records) {
      if (r.type === 'characterData') fixNode(r.target);
      r.addedNodes.forEach(fixNode);
    }
  }).observe(document.body, { subtree: true, childList: true, characterData: true });
}
