import fs from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { defineConfig, type Alias, type Plugin } from 'vite';
import react from '@vitejs/plugin-react';
import { aliases } from '../aliases';
import { drawHomeShell, type HomeShellData } from './src/app/home-shell';
import { homeAliases, paths } from './src/app/route-table';
import {
  defaultLanguage,
  languageNames,
  languages,
  languageStorageKey,
} from './src/i18n/languages';
import { themeStorageKey } from './src/app/theme';
import { storageKeys } from './src/state/session-storage';

/**
 * react-router 7 names only its development build in its package exports, so a production bundle
 * carried its dev-only checks and warnings (remix-run/react-router#14102, #12532). Production
 * builds take the production build it ships beside it: same API, less code to run at start.
 */
const reactRouterProduction: Alias[] = [
  ['react-router', 'index.mjs'],
  ['react-router/dom', 'dom-export.mjs'],
].map(([name, file]) => ({
  find: new RegExp(`^${name}$`),
  replacement: fileURLToPath(
    new URL(`../node_modules/react-router/dist/production/${file}`, import.meta.url),
  ),
}));

/**
 * RxJS names its ES5 build (with tslib's class helpers) as the default export condition and its
 * ES2015 build under `es2015`: production builds take the ES2015 one, smaller and quicker to parse
 * on a phone (the same operators, no down-levelled classes).
 */
const rxjsEs2015: Alias = {
  find: /^rxjs$/,
  replacement: fileURLToPath(new URL('../node_modules/rxjs/dist/esm/index.js', import.meta.url)),
};

/**
 * Page-level drawing pieces shared by the pages (see the `ui` chunk below), with the pickers'
 * styles: a page opening a picker then finds its styles loaded with the first page.
 */
const uiModule =
  /\/client\/src\/(components\/([^/]+|orders\/format)|i18n\/(format|useFormat|useProductName))\.(tsx?|css)$|\/client\/src\/components\/wallet\/picker\.css$|\/shared\/src\/product-names\.ts$/;
/**
 * What the shell itself draws or the pickers that bring Radix: not in the `ui` chunk. The brand's
 * styles are the shell's too: index.html's first paint of Home draws the brand (home-shell.ts).
 */
const shellModule =
  /\/components\/(StateViews|ErrorBoundary|OfflineBanner|Toast|icons|error-text|Dialog|ConfirmDialog|ChoicePicker)\.tsx?$|\/components\/(components|brand)\.css$/;

/** One language's texts, all feature files merged, read by dotted key. */
function localeText(lang: string, key: string): string {
  const dir = path.join(import.meta.dirname, 'src/i18n/locales');
  for (const feature of fs.readdirSync(dir)) {
    const file = path.join(dir, feature, `${lang}.json`);
    if (!fs.existsSync(file)) continue;
    let node: unknown = JSON.parse(fs.readFileSync(file, 'utf8'));
    for (const part of key.split('.'))
      node = node && typeof node === 'object' ? (node as Record<string, unknown>)[part] : undefined;
    if (typeof node === 'string') return node;
  }
  throw new Error(`no text for ${key} in ${lang}`);
}

/** What the first paint of Home needs to draw itself in any of the ten languages. */
export function homeShellData(): HomeShellData {
  return {
    homeHashes: ['', '#', ...[paths.home, ...homeAliases].map((p) => `#${p}`)],
    signUpHref: `#${paths.registerCheck}`,
    logInHref: `#${paths.login}`,
    languages: [...languages],
    defaultLanguage,
    names: languageNames,
    texts: Object.fromEntries(
      languages.map((lang) => [
        lang,
        {
          title: localeText(lang, 'app.title'),
          tagline: localeText(lang, 'app.tagline'),
          signUp: localeText(lang, 'content.home.signUp'),
          logIn: localeText(lang, 'content.home.logIn'),
          language: localeText(lang, 'common.language'),
        },
      ]),
    ),
    keys: {
      language: languageStorageKey,
      theme: themeStorageKey,
      token: storageKeys.token,
      appInfo: storageKeys.appInfo,
    },
  };
}

/**
 * Home's first paint without waiting for the scripts (issue 21: Largest Contentful Paint on a
 * phone). index.html gets home-shell.ts's drawing as an inline script right after #root (the
 * server allows it by its hash, server/src/app.ts), and, in a build, the entry's stylesheet
 * inlined as a <style>: the page is drawn as soon as the document is parsed, not after a
 * stylesheet's round trip, and before the scripts, which load meanwhile.
 */
function homeShell(): Plugin {
  return {
    name: 'home-shell',
    transformIndexHtml: {
      order: 'post',
      handler(html, ctx) {
        const script = `<script>(${drawHomeShell.toString()})(${JSON.stringify(homeShellData())});</script>`;
        let out = html.replace('<!-- home-shell -->', script);
        if (out === html) throw new Error('index.html has no <!-- home-shell --> mark');
        for (const asset of Object.values(ctx.bundle ?? {})) {
          if (asset.type !== 'asset' || !asset.fileName.endsWith('.css')) continue;
          const link = new RegExp(`<link rel="stylesheet"[^>]*href="/${asset.fileName}"[^>]*>`);
          if (!link.test(out)) continue;
          // Named by its file, which changes with its content: the service worker's build id
          // (app/service-worker.ts) follows a change of styles alone too.
          out = out.replace(
            link,
            () => `<style data-href="/${asset.fileName}">${String(asset.source)}</style>`,
          );
        }
        return out;
      },
    },
  };
}

export default defineConfig(({ command }) => ({
  root: import.meta.dirname,
  plugins: [react(), homeShell()],
  resolve: {
    alias: [
      ...(command === 'build' ? [...reactRouterProduction, rxjsEs2015] : []),
      ...Object.entries(aliases).map(([find, replacement]) => ({ find, replacement })),
    ],
  },
  build: {
    outDir: '../dist/client',
    emptyOutDir: true,
    sourcemap: true,
    rolldownOptions: {
      output: {
        codeSplitting: {
          groups: [
            {
              // One chunk per language, not one per feature file: a phone on a slow network
              // fetches one file for its texts instead of eight.
              name: (id: string) => /\/i18n\/locales\/[^/]+\/([^/]+)\.json$/.exec(id)?.[1] ?? null,
            },
            {
              // The small shared pieces the pages draw with (header, list, formats): one request
              // instead of a dozen once a page starts loading. Only what the pages need, not what
              // the shell needs (states, toasts, the offline banner, icons, result sheet): those
              // stay with the entry, and this chunk loads beside the first page's chunk instead
              // of before the first render (issue 21: initial JS on a phone). Its own imports
              // stay where they are (not pulled in), else the entry would preload it all again.
              // Not the dialogs nor the picker that opens one: they bring Radix, and load with
              // the pages that open one (the language picker loads when first opened).
              name: (id: string) => (uiModule.test(id) && !shellModule.test(id) ? 'ui' : null),
              includeDependenciesRecursively: false,
            },
          ],
        },
      },
    },
  },
  server: {
    proxy: {
      '/api': 'http://localhost:3000',
      '/socket.io': { target: 'ws://localhost:3000', ws: true },
    },
  },
}));
