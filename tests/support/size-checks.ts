/// <reference lib="dom" />
/// <reference lib="dom.iterable" />
// Functions passed to page.evaluate run in the browser: they see the DOM.
/**
 * The visual system's measurable rules (docs/VISUAL-SYSTEM.md), checked on a drawn page by the
 * route suite: every tap target at least 44 × 44 px, and one side margin (--page-x, 16 px) on
 * every screen.
 */
import type { Page } from 'playwright-core';

/** The size every control reaches (--tap), and the side margin of every screen (--page-x). */
export const tapSize = 44;
export const pageX = 16;

/**
 * Visible controls under 44 px tall or wide: links, buttons, fields, selects, tabs, and labels
 * that wrap a control. Exempt, as WCAG 2.5.8 exempts them: a link inside running text (a
 * paragraph or list item with words of its own around it), and a control whose box is hidden
 * (1 × 1 "visually hidden") because a label around or for it is the target, measured instead;
 * and the chart library's attribution logo (its own size, over the chart).
 */
export function smallTapTargets(page: Page): Promise<string[]> {
  return page.evaluate((tap) => {
    const selector =
      'a[href], button, input:not([type="hidden"]), select, textarea, summary, [role="button"], [role="tab"], [role="link"], [role="option"], [role="radio"], [role="switch"], [role="checkbox"], label';
    const problems: string[] = [];
    const describe = (el: Element) => {
      const id = el.getAttribute('data-testid');
      const cls = typeof el.className === 'string' ? el.className.split(' ')[0] : '';
      const name = (el.textContent ?? '').trim() || el.getAttribute('aria-label') || '';
      return `${el.tagName.toLowerCase()}${id ? `[${id}]` : cls ? `.${cls}` : ''} "${name.slice(0, 30)}"`;
    };
    for (const el of document.querySelectorAll<HTMLElement>(selector)) {
      if (el.closest('svg, [aria-hidden="true"], [inert]')) continue;
      // The chart library's attribution logo: its size is the library's, drawn over the chart.
      if (el.id === 'tv-attr-logo') continue;
      const style = getComputedStyle(el);
      if (style.visibility === 'hidden' || style.display === 'none') continue;
      const r = el.getBoundingClientRect();
      if (r.width === 0 || r.height === 0) continue;
      if (r.width <= 1 && r.height <= 1) continue; // visually hidden: its label is the target
      const control =
        'input, select, textarea, button, [role="switch"], [role="radio"], [role="checkbox"]';
      if (el.tagName === 'LABEL' && !el.querySelector(control)) continue; // a caption, no target
      // A checkbox or radio inside a label that is big enough: the label is the target.
      if (el.matches('input[type="checkbox"], input[type="radio"]')) {
        const label =
          el.closest('label') ?? (el.id ? document.querySelector(`label[for="${el.id}"]`) : null);
        if (label) continue;
      }
      // A link in running text: the sentence around it decides its size (WCAG 2.5.8, inline).
      if (el.tagName === 'A' && el.parentElement?.closest('p, li')) {
        const block = el.parentElement.closest('p, li')!;
        const words = [...block.childNodes].some((n) => n.nodeType === 3 && n.textContent?.trim());
        if (words) continue;
      }
      if (r.height < tap - 0.5 || r.width < tap - 0.5)
        problems.push(
          `${describe(el)} is ${Math.round(r.width)}×${Math.round(r.height)}px (tap targets are ${tap}px)`,
        );
    }
    return problems;
  }, tapSize);
}

/**
 * The screen's side margin: how far from the app frame's left edge its content starts. Content
 * is text and controls, and boxes drawn with a background or a border; a box as wide as the
 * frame (a full-bleed band) is not an edge itself, its content is. The page header, fixed and
 * sticky layers (the tab bar, the trade dock, toasts) and sideways scrollers' off-screen items
 * are chrome, not the screen's content; centred text has no side edge. Returns a problem when the nearest content is not
 * --page-x (16 px) from the edge.
 */
export function sideMarginProblems(page: Page): Promise<string[]> {
  return page.evaluate((margin) => {
    const main = document.querySelector('main');
    const frame = document.querySelector('.app')?.getBoundingClientRect();
    if (!main || !frame) return [];
    const edges: { x: number; what: string }[] = [];
    const describe = (el: Element) => {
      const cls = typeof el.className === 'string' ? el.className.split(' ')[0] : '';
      return `${el.tagName.toLowerCase()}${cls ? `.${cls}` : ''} "${(el.textContent ?? '').trim().slice(0, 30)}"`;
    };
    const chrome = (el: Element) => {
      for (let p: Element | null = el; p && p !== main; p = p.parentElement) {
        if (p.tagName === 'HEADER' || p.matches('[aria-hidden="true"], [inert], dialog'))
          return true;
        const pos = getComputedStyle(p).position;
        if (pos === 'fixed' || pos === 'sticky') return true;
      }
      return false;
    };
    for (const el of main.querySelectorAll<HTMLElement>('*')) {
      if (el.closest('svg') && el.tagName !== 'svg') continue;
      const style = getComputedStyle(el);
      if (style.display === 'none' || style.visibility === 'hidden') continue;
      const r = el.getBoundingClientRect();
      if (r.width <= 1 || r.height <= 1 || r.right <= frame.left || r.left >= frame.right) continue;
      if (chrome(el)) continue;
      // Loading, empty and error states are centred: no side edge.
      if (el.closest('[data-state]')) continue;
      const fullBleed = r.left <= frame.left + 1 && r.right >= frame.right - 1;
      const boxed =
        (style.backgroundColor !== 'rgba(0, 0, 0, 0)' && style.backgroundColor !== 'transparent') ||
        parseFloat(style.borderLeftWidth) > 0 ||
        el.matches('img, canvas, input, select, textarea, button');
      if (boxed && !fullBleed) edges.push({ x: r.left - frame.left, what: describe(el) });
      for (const node of el.childNodes) {
        if (node.nodeType !== 3 || !node.textContent?.trim()) continue;
        // Centred text (an empty state, a caption) has no side edge.
        if (style.textAlign === 'center') continue;
        const range = document.createRange();
        range.selectNodeContents(node);
        const t = range.getBoundingClientRect();
        if (t.width > 0) edges.push({ x: t.left - frame.left, what: describe(el) });
      }
    }
    if (edges.length === 0) return [];
    const nearest = edges.reduce((a, b) => (b.x < a.x ? b : a));
    if (Math.abs(nearest.x - margin) <= 1) return [];
    return [
      `content starts ${Math.round(nearest.x)}px from the edge, not ${margin}px: ${nearest.what}`,
    ];
  }, pageX);
}
