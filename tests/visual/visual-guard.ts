/// <reference lib="dom" />
/// <reference lib="dom.iterable" />
import { normalise, oneInstant } from './page-normalise';
import type { Browser, BrowserContext, Page } from 'playwright-core';
import { stillStyle } from './still-style';
import type { Shot } from './visual-compare';
import {
  appDrawn,
  routeVisits,
  storageScript,
  visitName,
  watchNetwork,
  type RouteSeed,
  type RouteVisit,
  type Visitor,
} from '@tests/support/route-visits';

/**
 * The visual regression guard (issue 37; docs/TESTING.md, Visual guard): every route of the
 * route suite and every overlay open, at two phone sizes, in three variants, compared with the
 * committed baselines in tests/visual/baselines/ by pixelmatch.
 *
 * Deterministic screenshots: the simulator replays its public seed, the page's clock is fixed,
 * animations, transitions, the caret and the banner's autoplay are off, every digit on the page
 * reads 8 and the seeded names, codes and addresses read as fixed text (their length kept), and
 * the regions that move with the live market are blanked (`liveRegions`, still-style.ts).
 */
export const visualVariants = [
  { lang: 'zh-CN', theme: 'light' },
  { lang: 'en', theme: 'dark' },
  // The longest texts of the ten languages.
  { lang: 'de', theme: 'light' },
] as const;
type VisualVariant = (typeof visualVariants)[number];

const viewports = [
  { width: 390, height: 844 },
  { width: 360, height: 780 },
] as const;

/** 2026-01-02 03:04:05 UTC: the page's clock, whatever the day of the run. */
const FIXED_TIME = Date.UTC(2026, 0, 2, 3, 4, 5);

type Viewport = { width: number; height: number };

interface Overlay {
  name: string;
  path: string;
  as: Visitor;
  /** Shot at these sizes instead of the two phones upright (a mode made for a phone on its side). */
  sizes?: readonly Viewport[];
  /** Opens it; resolves once it shows. `reload` loads the route again (still, normalised). */
  open: (page: Page, reload: () => Promise<void>) => Promise<void>;
}

const clickThenShow = (opener: string, shown: string) => async (page: Page) => {
  await page.getByTestId(opener).first().click();
  await page.getByTestId(shown).first().waitFor();
};

/** Every overlay of the app, open: each picker, dialog, sheet, confirmation and a toast. */
function overlays(): Overlay[] {
  const list: Overlay[] = [
    {
      name: 'language-picker',
      path: '/',
      as: 'guest',
      ...opens('language-button', 'language-dialog'),
    },
    {
      name: 'nationality-picker',
      path: '/pages/verify/verify',
      as: 'newcomer',
      ...opens('kyc-nationality', 'kyc-nationality-dialog'),
    },
    {
      name: 'theme-picker',
      path: '/pages/set/set',
      as: 'trader',
      ...opens('theme-select', 'theme-select-dialog'),
    },
    {
      name: 'confirm-dialog',
      path: '/pages/set/set',
      as: 'trader',
      ...opens('clear-cache', 'confirm-ok'),
    },
    {
      name: 'sort-picker',
      path: '/pages/product/product',
      as: 'guest',
      ...opens('sort', 'sort-dialog'),
    },
    {
      name: 'ledger-type-picker',
      path: '/pages/money-record/money-record',
      as: 'trader',
      ...opens('ledger-type', 'ledger-type-dialog'),
    },
    {
      name: 'profile-help',
      path: '/pages/user/user',
      as: 'trader',
      ...opens('profile-help', 'profile-help-dialog'),
    },
    {
      // The chart full screen, on a phone on its side (the mode is made for it).
      name: 'chart-fullscreen',
      path: '/pages/Detail/Detail?id=BTCUSDT',
      as: 'trader',
      sizes: [{ width: 844, height: 390 }],
      ...opens('chart-fullscreen', 'chart-fullscreen-exit'),
    },
    {
      // The price alerts of the product: above or below, its live price filled in.
      name: 'price-alerts',
      path: '/pages/Detail/Detail?id=BTCUSDT',
      as: 'trader',
      ...opens('price-alerts-button', 'price-alerts-dialog'),
    },
    {
      name: 'rules-sheet',
      path: '/pages/Detail/Detail?id=BTCUSDT',
      as: 'trader',
      ...opens('rules-link', 'rules-sheet'),
    },
    {
      // The order confirmation, as a trader with the confirmation on meets it before each order.
      name: 'order-confirm',
      path: '/pages/Detail/Detail?id=BTCUSDT',
      as: 'trader',
      open: async (page) => {
        await page.getByTestId('amount').fill('100');
        await page.getByTestId('buy-up').click();
        await page.getByTestId('confirm-order').waitFor();
      },
    },
    {
      // A result settled while nobody looked: toasted on the next page drawn, held by the pointer
      // (it hides after 5 s otherwise). Won or lost is the market's: its outcome is blanked.
      name: 'result-toast',
      path: '/pages/user/user',
      as: 'settled',
      open: async (page, reload) => {
        // Toasted once per device: it may have come and gone on the page before, so this device
        // forgets it and the page starts again (the unseen results are read on start).
        await page.evaluate(() => localStorage.removeItem('resultsToasted'));
        await reload();
        // The practice balance is 10 000 less or more the order's result: 4 digits or 5, so the
        // won or lost the market gave would show in the figure's width. It is blanked here.
        await page.addStyleTag({
          content: '[data-testid="practice-available"]{visibility:hidden!important}',
        });
        const toast = page.getByTestId('result-toast');
        // The seed's 30 s order may still be running: it toasts as it settles.
        await toast.waitFor({ timeout: 90_000 });
        await toast.hover();
      },
    },
    {
      name: 'toast',
      path: '/pages/recharge/recharge-bank-card?amount=100000',
      as: 'trader',
      open: async (page) => {
        await page.getByTestId('copy-bank-name').first().click();
        await page.locator('.toast').first().waitFor();
      },
    },
  ];
  return list.map((o) => ({ ...o, name: `overlay--${o.name}` }));

  function opens(opener: string, shown: string) {
    return { open: clickThenShow(opener, shown) };
  }
}

/** The seeded values that differ per run, each replaced by fixed text of its length. */
function fixedNames(seed: RouteSeed): [string, string][] {
  const pairs: [string, string][] = [];
  const users = [
    [seed.trader, 'trader'],
    [seed.newcomer, 'newbie'],
    [seed.settled, 'settled'],
  ] as const;
  for (const [user, name] of users)
    for (const value of [user.account, user.user.inviteCode])
      if (value) pairs.push([value, name.padEnd(value.length, 'x').slice(0, value.length)]);
  return pairs;
}

/** A browser context of one visitor in one variant: storage, fixed clock, reduced motion. */
async function visitorContext(browser: Browser, seed: RouteSeed, as: Visitor, v: VisualVariant) {
  const context = await browser.newContext({
    viewport: viewports[0],
    locale: v.lang,
    colorScheme: v.theme,
    reducedMotion: 'reduce',
    deviceScaleFactor: 1,
    hasTouch: true,
    timezoneId: 'UTC',
  });
  await context.addInitScript(storageScript(seed, as, v.lang));
  await context.addInitScript('window.__name = (f) => f;');
  await context.clock.setFixedTime(FIXED_TIME);
  await context.addInitScript(oneInstant, FIXED_TIME);
  return context;
}

/**
 * One page per visitor, moved from route to route by its hash (no reload: the run stays within a
 * few minutes); the still style and the normaliser stay installed across routes.
 */
async function visitorPage(context: BrowserContext, url: string, names: [string, string][]) {
  const page = await context.newPage();
  const net = watchNetwork(page);
  const still = async () => {
    await page.locator(appDrawn).first().waitFor();
    await page.addStyleTag({ content: stillStyle });
    await page.evaluate(normalise, names);
  };
  await page.goto(`${url}/#/`);
  await still();
  /** Loads the current route again, still and normalised as before. */
  const reload = async () => {
    await page.reload();
    await still();
  };
  return { page, net, reload };
}

type VisitorPage = Awaited<ReturnType<typeof visitorPage>>;

/** Opens one route (and an overlay on it), then shoots it at each viewport. */
async function shootPage(
  { page, net, reload }: VisitorPage,
  url: string,
  target: {
    name: string;
    path: string;
    prepare?: RouteVisit['prepare'];
    ready?: string;
    sizes?: readonly Viewport[];
  },
  open?: Overlay['open'],
): Promise<{ name: string; size: string; png: Buffer }[]> {
  await target.prepare?.(url);
  await page.setViewportSize(viewports[0]);
  // Until the router has taken the new hash and drawn twice: checked any earlier, "nothing is
  // loading" is still the previous page's answer, and a newcomer's first page (its chunk not yet
  // fetched in this context) was once shot still loading.
  await page.evaluate(
    (hash) =>
      new Promise<void>((resolve) => {
        if (location.hash === hash) return resolve();
        const drawn = () => requestAnimationFrame(() => requestAnimationFrame(() => resolve()));
        addEventListener('hashchange', drawn, { once: true });
        location.hash = hash;
      }),
    `#${target.path}`,
  );
  await page.locator(appDrawn).first().waitFor();
  // Attached, not visible: a ready live price is blanked.
  if (target.ready) await page.locator(target.ready).first().waitFor({ state: 'attached' });
  await net.settle(250).catch(() => undefined);
  // A page still showing "Loading…" (its chunk or first read not in yet) is not the page: a busy
  // machine once caught the withdrawal-account form that way.
  await page
    .waitForFunction(() => !document.querySelector('[data-state="loading"]'), null, {
      timeout: 30_000,
    })
    .catch(() => undefined);
  // A just-placed order's entry is recorded within a second or two: its card is taller then.
  await page
    .waitForFunction(() => !document.querySelector('.order-card__awaiting'), null, {
      timeout: 10_000,
    })
    .catch(() => undefined);
  await page.evaluate(() => window.scrollTo(0, 0));
  if (open) {
    await open(page, reload);
    await net.settle(250).catch(() => undefined);
  }
  const shots = [];
  for (const viewport of target.sizes ?? viewports) {
    await page.setViewportSize(viewport);
    await page.evaluate(
      () => new Promise((r) => requestAnimationFrame(() => requestAnimationFrame(r))),
    );
    const png = await page.screenshot({
      animations: 'disabled',
      caret: 'hide',
    });
    shots.push({ name: target.name, size: `${viewport.width}x${viewport.height}`, png });
  }
  // Leaves the overlay, and waits until its history entry is taken off (back-closes.ts): a route
  // opened before that Back lands would be left again by it.
  if (open) {
    await page.keyboard.press('Escape');
    await page.waitForFunction(() => !(history.state as { overlay?: string } | null)?.overlay);
  }
  return shots;
}

/** Every route and every overlay of one variant, at both sizes. */
export async function shootVariant(
  browser: Browser,
  url: string,
  seed: RouteSeed,
  v: VisualVariant,
): Promise<Shot[]> {
  const names = fixedNames(seed);
  const contexts: BrowserContext[] = [];
  const pages = new Map<Visitor, VisitorPage>();
  const pageOf = async (as: Visitor) => {
    const existing = pages.get(as);
    if (existing) return existing;
    const context = await visitorContext(browser, seed, as, v);
    contexts.push(context);
    const created = await visitorPage(context, url, names);
    pages.set(as, created);
    return created;
  };
  const variant = `${v.lang}-${v.theme}`;
  const out: Shot[] = [];
  const add = (shots: { name: string; size: string; png: Buffer }[]) => {
    for (const s of shots) out.push({ key: `${variant}/${s.size}/${s.name}.png`, png: s.png });
  };
  try {
    for (const visit of routeVisits(seed))
      add(await shootPage(await pageOf(visit.as), url, { ...visit, name: visitName(visit) }));
    for (const overlay of overlays())
      add(await shootPage(await pageOf(overlay.as), url, overlay, overlay.open));
  } finally {
    for (const c of contexts) await c.close();
  }
  return out;
}
