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

export default defineConfig(({ command }) => ({
  root: import.meta.dirname,
  plugins: [react()],
  resolve: {
    alias: [
      ...(command === 'build' ? reactRouterProduction : []),
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
              // The small shared pieces every page draws with (header, states, list, formats):
              // one request instead of a dozen once the first page starts loading. Not the
              // dialogs: they bring Radix, and load with the pages that open one.
              name: (id: string) =>
                /\/client\/src\/(components\/[^/]+|i18n\/(format|useFormat))\.(tsx?|css)$/.test(
                  id,
                ) && !/Dialog\.tsx$/.test(id)
                  ? 'ui'
                  : null,
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
