import { defineConfig } from 'vite';

/**
 * The dashboard app (DESIGN §11), served by the API at /dashboard. No React plugin: esbuild
 * compiles TSX with the automatic JSX runtime, which is all this app needs (no fast refresh).
 */
export default defineConfig({
  root: __dirname,
  base: '/dashboard/',
  esbuild: { jsx: 'automatic' },
  build: {
    outDir: 'dist',
    emptyOutDir: true,
    chunkSizeWarningLimit: 1200,
    rollupOptions: {
      // React Query marks its modules "use client" for server-component bundlers; meaningless here.
      onwarn(warning, warn) {
        if (warning.code !== 'MODULE_LEVEL_DIRECTIVE') warn(warning);
      },
    },
  },
  server: { proxy: { '/v1': 'http://localhost:3000', '/dashboard/api': 'http://localhost:3000' } },
});
