/**
 * Client build: one browser entry, each lazy screen its own chunk, a manifest the worker reads to
 * preload the right files. The worker itself is bundled by wrangler (docs/decisions/001).
 */
import { fileURLToPath } from 'node:url';
import { defineConfig, type Plugin } from 'vite';
import { buildId } from './scripts/lib/build-id-plugin.ts';
import { openApiAssets } from './scripts/lib/vite-openapi.ts';
import { plainPreload } from './scripts/lib/vite-plain-preload.ts';
import { pureReactRouter } from './scripts/lib/vite-pure-react-router.ts';

// react-router's package exports point at its development build; its production build ships
// beside it, without dev-only warnings and checks.
const reactRouterProduction = fileURLToPath(new URL('node_modules/react-router/dist/production/', import.meta.url));

/**
 * ua-parser-js 1.x ships only a UMD file. Bundled as CommonJS into the lazy device chunk, it needs
 * the bundler's CommonJS helpers there too, and the bundler then moves those helpers out of the
 * entry into a shared chunk that every first visit has to load. Wrapped as an ES module (its UMD
 * header takes the `module` object it is given), it needs no helpers (docs/decisions/002).
 */
function uaParserAsEsm(): Plugin {
  return {
    name: 'lander:ua-parser-as-esm',
    transform: {
      filter: { id: /[\\/]node_modules[\\/]ua-parser-js[\\/]src[\\/]ua-parser\.js$/ },
      handler(code) {
        return {
          code: `var module = { exports: {} }, exports = module.exports;\n${code}\nexport default module.exports;\n`,
          map: null,
        };
      },
    },
  };
}

export default defineConfig(({ mode }) => ({
  publicDir: 'public',
  plugins: [buildId(), uaParserAsEsm(), pureReactRouter(), plainPreload(), openApiAssets()],
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
    // The worker writes the modulepreload links a page needs (worker/render/assets.ts, from the
    // manifest). Vite's own preloading of a lazy chunk's imports only helps chunks loaded after
    // hydration, and its file tables cost ~85 B gzip of the initial-JS budget (docs/benchmarks.md).
    // The visitors' screens keep no stylesheet of their own (client/browser/entry.tsx), so no chunk
    // of theirs needs the bundler's CSS loader.
    modulePreload: false,
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
