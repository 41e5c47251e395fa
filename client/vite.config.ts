import { defineConfig } from 'vite';
import react from '@vitejs/plugin-react';
import { aliases } from '../aliases';

export default defineConfig({
  root: import.meta.dirname,
  plugins: [react()],
  resolve: { alias: aliases },
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
              // one request instead of a dozen once the first page starts loading.
              name: (id: string) =>
                /\/client\/src\/(components\/[^/]+|i18n\/(format|useFormat))\.(tsx?|css)$/.test(id)
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
});
