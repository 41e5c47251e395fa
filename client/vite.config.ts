import { fileURLToPath } from 'node:url';
import { defineConfig, type Alias } from 'vite';
import react from '@vitejs/plugin-react';
import { aliases } from '../aliases';

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
/** What the shell itself draws or the pickers that bring Radix: not in the `ui` chunk. */
const shellModule =
  /\/components\/(StateViews|ErrorBoundary|OfflineBanner|Toast|icons|error-text|Dialog|ConfirmDialog|ChoicePicker)\.tsx?$|\/components\/components\.css$/;

export default defineConfig(({ command }) => ({
  root: import.meta.dirname,
  plugins: [react()],
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
