/// <reference lib="dom" />
/// <reference lib="dom.iterable" />
// Functions passed to page.evaluate run in the browser: they see the DOM.
/**
 * What the route suite checks on a page, each returning the problems found as lines of text:
 * raw translation keys, layout (off screen, cut off), axe-core, keyboard reachability, and
 * figures told up or down by colour alone.
 */
import fs from 'node:fs';
import path from 'node:path';
import type { Page } from 'playwright-core';
import { repoRoot } from './processes';

/** Every key of the zh-CN locale files (`common.loading`, …) and their top-level names. */
export function localeKeys(): { keys: Set<string>; roots: string[] } {
  const dir = path.join(repoRoot, 'client/src/i18n/locales');
  const keys = new Set<string>();
  const roots = new Set<string>();
  const walk = (node: unknown, prefix: string) => {
    if (typeof node === 'string') keys.add(prefix);
    else if (node && typeof node === 'object')
      for (const [k, v] of Object.entries(node)) walk(v, prefix ? `${prefix}.${k}` : k);
  };
  for (const feature of fs.readdirSync(dir)) {
    const tree = JSON.parse(
      fs.readFileSync(path.join(dir, feature, 'zh-CN.json'), 'utf8'),
    ) as object;
    for (const root of Object.keys(tree)) roots.add(root);
    walk(tree, '');
  }
  return { keys, roots: [...roots] };
}

/** Translation keys shown as text: known keys, or anything shaped like `<root>.<name>`. */
export function rawKeysIn(text: string, { keys, roots }: ReturnType<typeof localeKeys>): string[] {
  const shaped = new RegExp(`\\b(?:${roots.join('|')})\\.[A-Za-z][\\w.]*`, 'g');
  const found = new Set(text.match(shaped) ?? []);
  for (const token of text.match(/[A-Za-z][\w-]*(?:\.[\w-]+)+/g) ?? [])
    if (keys.has(token)) found.add(token);
  return [...found];
}

/**
 * Layout problems a reader would see: the page wider than the phone, and text cut off inside
 * its box without an ellipsis (a long German or Thai label, a long number).
 */
export function layoutProblems(page: Page): Promise<string[]> {
  return page.evaluate(async () => {
    // Measured at rest: a transition under way (a carousel sliding its next banner in) puts
    // elements where they will not stay. Endless animations (spinners) are not transitions.
    const moving = document.getAnimations().filter((a) => a instanceof CSSTransition);
    await Promise.race([
      Promise.allSettled(moving.map((a) => a.finished)),
      new Promise((r) => setTimeout(r, 2000)),
    ]);
    const problems: string[] = [];
    const width = document.documentElement.clientWidth;
    if (document.documentElement.scrollWidth > width + 1)
      problems.push(`page is ${document.documentElement.scrollWidth}px wide (viewport ${width})`);
    const describe = (el: Element) => {
      const id = el.getAttribute('data-testid');
      const cls = typeof el.className === 'string' ? el.className.split(' ')[0] : '';
      return `${el.tagName.toLowerCase()}${id ? `[${id}]` : cls ? `.${cls}` : ''} "${(el.textContent ?? '').trim().slice(0, 40)}"`;
    };
    const scrollsX = (el: Element) => {
      for (let p: Element | null = el; p; p = p.parentElement) {
        const o = getComputedStyle(p).overflowX;
        if (o === 'auto' || o === 'scroll') return true;
      }
      return false;
    };
    for (const el of document.body.querySelectorAll('*')) {
      if (!(el instanceof HTMLElement) || el.closest('svg, canvas, select, [aria-hidden="true"]'))
        continue;
      const style = getComputedStyle(el);
      if (style.display === 'none' || style.visibility === 'hidden') continue;
      const rect = el.getBoundingClientRect();
      if (rect.width === 0 || rect.height === 0) continue;
      // Text for screen readers only (the 1×1 "visually hidden" pattern) is clipped on purpose.
      if (el.clientWidth <= 1 && el.clientHeight <= 1) continue;
      const ownText = [...el.childNodes].some((n) => n.nodeType === 3 && n.textContent?.trim());
      if (!ownText) continue;
      if (rect.right > width + 1 && !scrollsX(el)) problems.push(`${describe(el)} runs off screen`);
      else if (
        el.scrollWidth > el.clientWidth + 1 &&
        style.overflowX !== 'visible' &&
        style.textOverflow !== 'ellipsis' &&
        !scrollsX(el.parentElement ?? el)
      )
        problems.push(`${describe(el)} is cut off (${el.scrollWidth}px in ${el.clientWidth}px)`);
    }
    return problems;
  });
}

/** Serious and critical axe-core violations on the page, one line each. */
export async function axeViolations(page: Page): Promise<string[]> {
  const loaded = await page.evaluate('typeof window.axe === "object"');
  if (!loaded)
    await page.addScriptTag({
      content: fs.readFileSync(path.join(repoRoot, 'node_modules/axe-core/axe.min.js'), 'utf8'),
    });
  interface AxeNode {
    target: string[];
    any: { data?: { fgColor?: string; bgColor?: string; contrastRatio?: number } | null }[];
  }
  interface AxeViolation {
    id: string;
    impact: string;
    help: string;
    nodes: AxeNode[];
  }
  const violations = await page.evaluate(async () => {
    const { axe } = window as unknown as {
      axe: { run: (ctx: Document, o: object) => Promise<{ violations: AxeViolation[] }> };
    };
    return (await axe.run(document, { resultTypes: ['violations'] })).violations;
  });
  // "#_r_0_ (#8a94a6 on #f5f7fa, 3.2)": what failed, with the colours when contrast did.
  const node = (n: AxeNode) => {
    const data = n.any.find((a) => a.data?.contrastRatio)?.data;
    const colours = data ? ` (${data.fgColor} on ${data.bgColor}, ${data.contrastRatio})` : '';
    return `${n.target.join(' ')}${colours}`;
  };
  return violations
    .filter((v) => v.impact === 'serious' || v.impact === 'critical')
    .map((v) => `${v.id} (${v.impact}): ${v.help} — ${v.nodes.map(node).join(', ')}`);
}

/**
 * Everything a pointer can use must be reachable with Tab: walks the tab order from the top of
 * the page and returns the visible controls it never reached, and clickable-looking elements
 * (pointer cursor) that are no control at all.
 */
export async function keyboardGaps(page: Page): Promise<string[]> {
  const controls = await page.evaluate(() => {
    const selector =
      'a[href], button:not([disabled]), input:not([disabled]):not([type="hidden"]), select:not([disabled]), textarea:not([disabled]), [tabindex]:not([tabindex="-1"]), [role="button"], [role="tab"], [role="link"]';
    const visible = (el: HTMLElement) => {
      const r = el.getBoundingClientRect();
      const s = getComputedStyle(el);
      return r.width > 0 && r.height > 0 && s.visibility !== 'hidden' && !el.closest('[inert]');
    };
    let n = 0;
    const found: string[] = [];
    for (const el of document.querySelectorAll<HTMLElement>(selector)) {
      // A file input hidden behind its styled label is reached through the label's control.
      if (!visible(el) && !(el instanceof HTMLInputElement && el.type === 'file')) continue;
      const id = `k${n++}`;
      el.dataset.kbd = id;
      // Tabs and radio buttons take one Tab stop per group; arrow keys move within it.
      const tablist = el.closest('[role="tablist"]');
      if (el.getAttribute('role') === 'tab' && tablist)
        el.dataset.kbdGroup = `tablist-${[...document.querySelectorAll('[role="tablist"]')].indexOf(tablist)}`;
      if (el instanceof HTMLInputElement && el.type === 'radio' && el.name)
        el.dataset.kbdGroup = `radio-${el.name}`;
      found.push(id);
    }
    const fake: string[] = [];
    for (const el of document.querySelectorAll<HTMLElement>('body *')) {
      if (!visible(el) || getComputedStyle(el).cursor !== 'pointer') continue;
      if (el.closest(`${selector}, label, summary`)) continue;
      fake.push(
        `${el.tagName.toLowerCase()}.${String(el.className).split(' ')[0]} "${(el.textContent ?? '').trim().slice(0, 30)}"`,
      );
    }
    return { ids: found, fake };
  });
  await page.evaluate(() => {
    (document.activeElement as HTMLElement | null)?.blur();
    window.scrollTo(0, 0);
  });
  const reached = new Set<string>();
  for (let i = 0; i < controls.ids.length + 10; i++) {
    await page.keyboard.press('Tab');
    const ids = await page.evaluate(() => {
      const a = document.activeElement as HTMLElement | null;
      // A file input is focused through its label-styled wrapper; count the input itself.
      const el = a?.dataset.kbd ? a : a?.querySelector<HTMLElement>('[data-kbd]');
      if (!el?.dataset.kbd) return [];
      const group = el.dataset.kbdGroup;
      return group
        ? [...document.querySelectorAll<HTMLElement>(`[data-kbd-group="${group}"]`)].map(
            (g) => g.dataset.kbd ?? '',
          )
        : [el.dataset.kbd];
    });
    for (const id of ids) reached.add(id);
  }
  const missed = await page.evaluate(
    (ids) =>
      ids.map((id) => {
        const el = document.querySelector<HTMLElement>(`[data-kbd="${id}"]`);
        return el
          ? `${el.tagName.toLowerCase()}${el.dataset.testid ? `[${el.dataset.testid}]` : ''} "${(el.textContent ?? el.getAttribute('aria-label') ?? '').trim().slice(0, 30)}" not reachable by Tab`
          : `${id} went away`;
      }),
    controls.ids.filter((id) => !reached.has(id)),
  );
  return [...missed, ...controls.fake.map((f) => `${f} looks clickable but is no control`)];
}

/**
 * Up and down are never told by colour alone: every number drawn in the rise or fall colour
 * carries a sign or an arrow.
 */
export function colourOnlySigns(page: Page): Promise<string[]> {
  return page.evaluate(() => {
    const probe = document.createElement('span');
    document.body.append(probe);
    const colourOf = (v: string) => {
      probe.style.color = `var(${v})`;
      return getComputedStyle(probe).color;
    };
    const up = colourOf('--up');
    const down = colourOf('--down');
    probe.remove();
    const problems: string[] = [];
    for (const el of document.body.querySelectorAll<HTMLElement>('*')) {
      const colour = getComputedStyle(el).color;
      if (colour !== up && colour !== down) continue;
      const text = (el.textContent ?? '').trim();
      // A figure (no words): a price, a change, an amount. Words in the fall colour are errors.
      if (!/^[^\p{L}]*\d[^\p{L}]*$/u.test(text) || el.getBoundingClientRect().width === 0) continue;
      if (
        el.querySelector('*') &&
        [...el.children].every((c) => getComputedStyle(c).color === colour)
      )
        continue; // judged at the children
      // An arrow may be drawn by CSS (::before/::after) or sit beside the figure.
      const drawn = ['::before', '::after'].map((p) => getComputedStyle(el, p).content).join('');
      const context = `${el.parentElement?.textContent ?? ''}${drawn}`;
      if (!/[+\-−▲▼↑↓]/.test(text) && !/[▲▼↑↓]/.test(context))
        problems.push(
          `${el.tagName.toLowerCase()} "${text.slice(0, 30)}" is ${colour === up ? 'rise' : 'fall'} coloured with no sign or arrow`,
        );
    }
    return problems;
  });
}
