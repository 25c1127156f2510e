/**
 * Client build: one browser entry, each lazy screen its own chunk, a manifest the worker reads to
 * preload the right files. The worker itself is bundled by wrangler (docs/decisions/001).
 */
import { fileURLToPath } from 'node:url';
import { defineConfig } from 'vite';
import { buildId } from './scripts/lib/build-id-plugin.ts';

// react-router's package exports point at its development build; its production build ships
// beside it, without dev-only warnings and checks.
const reactRouterProduction = fileURLToPath(new URL('node_modules/react-router/dist/production/', import.meta.url));

export default defineConfig(({ mode }) => ({
  publicDir: 'public',
  plugins: [buildId()],
  resolve: {
    alias:
      mode === 'production'
        ? [
            { find: /^react-router$/, replacement: `${reactRouterProduction}index.mjs` },
            { find: /^react-router\/dom$/, replacement: `${reactRouterProduction}dom-export.mjs` },
          ]
        : [],
  },
  build: {
    outDir: 'dist/client',
    emptyOutDir: true,
    manifest: true,
    target: 'es2022',
    rollupOptions: {
      input: 'client/browser/entry.tsx',
      onwarn(warning, warn) {
        // React Router marks modules "use client" for server components; irrelevant in a browser bundle.
        if (warning.code === 'MODULE_LEVEL_DIRECTIVE') return;
        warn(warning);
      },
    },
  },
}));
