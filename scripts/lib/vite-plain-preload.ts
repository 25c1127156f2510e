/**
 * A Vite plugin that makes the build's preload helper a plain call: `__vitePreload(load)` is `load()`.
 *
 * Vite wraps every dynamic `import()` of the browser build in a helper that first loads the chunk's
 * modulepreloads and stylesheets. Here it has nothing left to load: `build.modulePreload` is off (the
 * worker writes every modulepreload a page needs, worker/render/assets.ts), and the only stylesheet
 * a visitor's chunk names is the entry's own, which every document links. The helper still cost the
 * entry ~600 B gzip of the initial-JS budget (docs/decisions/003-trim-react-router-for-the-js-budget.md).
 * A failed import still rejects as before, to the entry's reload-once guard (client/browser/chunk-reload.ts).
 *
 * The build fails if a chunk comes to import a stylesheet the entry does not: that one the plain call
 * would never load.
 */
import type { Plugin } from 'vite';

const HELPER = /^\0vite\/preload-helper\.js$/;

export function plainPreload(): Plugin {
  return {
    name: 'lander:plain-preload',
    apply: 'build',
    enforce: 'pre',
    load: {
      filter: { id: HELPER },
      handler: () => 'export const __vitePreload = (load) => load();',
    },
    generateBundle(_options, bundle) {
      const chunks = Object.values(bundle).flatMap((output) => (output.type === 'chunk' ? [output] : []));
      const cssOf = (chunk: (typeof chunks)[number]): string[] => [...(chunk.viteMetadata?.importedCss ?? [])];
      const entryCss = new Set(chunks.filter((chunk) => chunk.isEntry).flatMap(cssOf));
      for (const chunk of chunks) {
        const own = cssOf(chunk).filter((css) => !entryCss.has(css));
        if (own.length > 0) {
          this.error(
            `${chunk.fileName} imports ${own.join(', ')}, which the entry does not: import it in ` +
              'client/browser/entry.tsx, or as a URL (`?url`) its screen links itself (scripts/lib/vite-plain-preload.ts)',
          );
        }
      }
    },
  };
}
