import { defineConfig } from 'vite';
import react from '@vitejs/plugin-react';
import { aliases } from '../aliases';

/**
 * The operator console (/ops/, issue 20) is its own build, after the trader's (client/vite.config.ts):
 * its html, its chunks under ops-assets/ (which the trader's service worker never touches) and its
 * own copy of React and friends. The trader's build is byte for byte what it was without the
 * console: no shared chunk moves, and neither page ever loads the other's code or styles.
 */
export default defineConfig({
  root: import.meta.dirname,
  plugins: [react()],
  resolve: {
    alias: Object.entries(aliases).map(([find, replacement]) => ({ find, replacement })),
  },
  // The trader's public files (service worker, manifest, icons) are copied by its own build.
  publicDir: false,
  build: {
    outDir: '../dist/client',
    emptyOutDir: false,
    assetsDir: 'ops-assets',
    sourcemap: true,
    rolldownOptions: { input: { ops: `${import.meta.dirname}/ops.html` } },
  },
});
