import { fileURLToPath } from 'node:url';
import { defineConfig } from 'vitest/config';

/**
 * The dashboard app (DESIGN §11), served by the API at /dashboard. No React plugin: Vite's own
 * transform compiles TSX with the automatic JSX runtime, which is all this app needs (no fast
 * refresh). Each page is its own chunk (src/router.tsx), so the first page loads only what it shows.
 */
export default defineConfig({
  root: fileURLToPath(new URL('.', import.meta.url)),
  base: '/dashboard/',
  build: {
    outDir: 'dist',
    emptyOutDir: true,
    // The entry (React, React DOM, the shell) is the largest chunk, ~255 kB before compression.
    chunkSizeWarningLimit: 300,
    rolldownOptions: {
      // React Query marks its modules "use client" for server-component bundlers; meaningless here.
      onwarn(warning, warn) {
        if (warning.code !== 'MODULE_LEVEL_DIRECTIVE') warn(warning);
      },
    },
  },
  server: { proxy: { '/v1': 'http://localhost:3000', '/dashboard/api': 'http://localhost:3000' } },
  test: {
    environment: 'jsdom',
    include: ['src/**/*.test.{ts,tsx}'],
    setupFiles: ['./test/setup.ts'],
    restoreMocks: true,
    // A busy machine (CI, eight engineers) renders a page's first chunk slowly.
    testTimeout: 20_000,
  },
});
