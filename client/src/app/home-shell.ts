/**
 * Home's first paint, before any of the app's scripts (issue 21: a phone's Largest Contentful
 * Paint). index.html carries this function as a small inline script (client/vite.config.ts puts
 * it there, the server allows it by its hash): on Home it draws the page's header and tagline in
 * the reader's language and theme, with the same elements and classes React draws them with, so
 * the text a phone paints first is the page's own and React's render replaces it in place (same
 * size and position: no larger paint after it, no shift). Anywhere else the boot screen stays.
 *
 * The function runs as it is written, in the browser, on its own: it reads nothing from this
 * module's scope (its data is its argument) and uses no syntax a build would rewrite.
 */
export interface HomeShellTexts {
  /** The app's generic name (`app.title`), until app info has named it. */
  title: string;
  tagline: string;
  signUp: string;
  logIn: string;
  /** `common.language`: the language button's label. */
  language: string;
}

export interface HomeShellData {
  /** Hashes that show Home ('#/pages/index/index' and its aliases, and none). */
  homeHashes: string[];
  signUpHref: string;
  logInHref: string;
  languages: string[];
  defaultLanguage: string;
  /** Each language named in itself (the language button). */
  names: Record<string, string>;
  texts: Record<string, HomeShellTexts>;
  /** Local-storage keys: the language choice, the theme choice, the session, app info. */
  keys: { language: string; theme: string; token: string; appInfo: string };
}

export function drawHomeShell(data: HomeShellData): void {
  const doc = document;
  const root = doc.documentElement;
  const read = (key: string): string | null => {
    try {
      return localStorage.getItem(key);
    } catch {
      return null; // storage blocked: as without a choice
    }
  };
  // The language as i18n/languages.ts detectLanguage picks it: the stored choice, else the first
  // preferred language that maps onto the ten (Chinese by script), else the default.
  const match = (tag: string): string | null => {
    const parts = tag.trim().replace(/_/g, '-').toLowerCase().split('-');
    if (parts[0] === 'zh') {
      const traditional = parts.some((p) => p === 'tw' || p === 'hk' || p === 'mo' || p === 'hant');
      return traditional ? 'zh-TW' : 'zh-CN';
    }
    return data.languages.indexOf(parts[0] || '') >= 0 ? (parts[0] as string) : null;
  };
  let lang = read(data.keys.language);
  if (!lang || data.languages.indexOf(lang) < 0) {
    lang = null;
    const preferred = navigator.languages || [navigator.language];
    for (let i = 0; i < preferred.length && !lang; i++) lang = match(preferred[i] || '');
    lang = lang || data.defaultLanguage;
  }
  // The theme as app/theme.ts resolves it (it sets the same again when the app starts).
  const choice = read(data.keys.theme);
  const system = matchMedia('(prefers-color-scheme: dark)').matches ? 'dark' : 'light';
  root.dataset.theme = choice === 'light' || choice === 'dark' ? choice : system;
  root.lang = lang;

  const hash = location.hash.split('?')[0] || '';
  const boot = doc.querySelector('#root > .boot');
  const texts = data.texts[lang];
  if (!boot || !texts || data.homeHashes.indexOf(hash) < 0) return;

  const token = read(data.keys.token);
  const loggedIn = !!token && token !== 'null';
  let name = texts.title;
  try {
    const info = JSON.parse(read(data.keys.appInfo) || 'null') as { name?: unknown } | null;
    if (info && typeof info.name === 'string') name = info.name;
  } catch {
    // unreadable app info: the generic name, as the app shows it
  }
  const el = (tag: string, attrs: Record<string, string>, children: (Node | string)[]) => {
    const node = doc.createElement(tag);
    Object.keys(attrs).forEach((key) => node.setAttribute(key, attrs[key] as string));
    node.append(...children);
    return node;
  };
  const svg = (tag: string, attrs: Record<string, string>, children: Node[]) => {
    const node = doc.createElementNS('http://www.w3.org/2000/svg', tag);
    Object.keys(attrs).forEach((key) => node.setAttribute(key, attrs[key] as string));
    node.append(...children);
    return node;
  };
  // BrandMark (components/Brand.tsx); an operator's logo waits for the app.
  const mark = svg(
    'svg',
    {
      class: 'brand__logo',
      width: '28',
      height: '28',
      viewBox: '0 0 32 32',
      'aria-hidden': 'true',
      focusable: 'false',
    },
    [
      svg('rect', { width: '32', height: '32', rx: '8', fill: 'var(--accent)' }, []),
      svg(
        'path',
        {
          d: 'M7 21.5 13 15.5l4 4 8-9',
          fill: 'none',
          stroke: 'var(--accent-contrast)',
          'stroke-width': '2.6',
          'stroke-linecap': 'round',
          'stroke-linejoin': 'round',
        },
        [],
      ),
      svg('circle', { cx: '25', cy: '10.5', r: '2.2', fill: 'var(--accent-contrast)' }, []),
    ],
  );
  // LanguageSelect (components/LanguageSelect.tsx): it opens once the app has started.
  const languageSelect = el('div', { class: 'language-select' }, [
    el('span', { class: 'visually-hidden' }, [texts.language]),
    el('button', { type: 'button', class: 'language-select__button', 'aria-disabled': 'true' }, [
      el('span', { lang: lang }, [data.names[lang] || lang]),
      el('span', { 'aria-hidden': 'true' }, ['▾']),
    ]),
  ]);
  const tagline = el('p', { class: 'page-intro' }, [texts.tagline]);
  const header = el('header', { class: 'page-header' }, [
    el('h1', { class: 'page-header__title' }, [
      el('span', { class: 'brand' }, [mark, el('span', { class: 'brand__name' }, [name])]),
    ]),
    el('div', { class: 'page-header__actions' }, [
      loggedIn
        ? languageSelect
        : el('span', { class: 'home-guest' }, [
            el('a', { class: 'home-guest__link', href: data.signUpHref }, [texts.signUp]),
            el('a', { class: 'home-guest__link home-guest__link--primary', href: data.logInHref }, [
              texts.logIn,
            ]),
          ]),
    ]),
  ]);
  // HomePage (pages/home/home.tsx): a guest's language switch sits beside the tagline.
  const intro = loggedIn ? tagline : el('div', { class: 'home-intro' }, [tagline, languageSelect]);
  const shell = el('div', { class: 'boot boot--home', 'aria-busy': 'true' }, [
    el('div', { class: 'app app--tabs' }, [el('main', { class: 'app__main' }, [header, intro])]),
  ]);
  boot.replaceWith(shell);
}
