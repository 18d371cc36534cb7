import { fileURLToPath } from 'node:url';
import { defineConfig } from 'vite';

/**
 * The customer portal (DESIGN §19), served by the API at /portal. Plain TypeScript and the DOM, no
 * framework: the whole app is a few kB, far under the 60 kB gzip budget, and every text goes
 * through textContent, so nothing a merchant or customer typed is ever parsed as HTML.
 */
export default defineConfig({
  root: fileURLToPath(new URL('.', import.meta.url)),
  base: '/portal/',
  build: {
    outDir: 'dist',
    emptyOutDir: true,
    // The strict policy (no inline anything): the style sheet is a file, never inlined as data.
    assetsInlineLimit: 0,
  },
  server: { proxy: { '/portal/api': 'http://localhost:3000', '/portal/open': 'http://localhost:3000' } },
});
