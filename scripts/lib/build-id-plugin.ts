/**
 * Vite plugin giving each client build its identity (docs/builds.md): the id is a content hash of
 * every file the build emits plus the route rules (they travel in the build's manifest, so a rule
 * change is a new build too). Written as `.vite/build.json` `{ id, timestamp }` beside Vite's
 * manifest: the worker carries it, and `npm run deploy` writes it to KV.
 */
import { createHash } from 'node:crypto';
import type { Plugin } from 'vite';
import { buildManifest } from '../../shared/build-manifest.ts';
import { routeRules } from '../../shared/route-rules.ts';

/** Where the build's identity is written, relative to the client build's folder. */
export const BUILD_FILE = '.vite/build.json';

export interface EmittedFile {
  fileName: string;
  content: string | Uint8Array;
}

/** The build id of `files` and `rules`: the same for the same contents, whatever order they come in. */
export function contentHash(files: readonly EmittedFile[], rules: unknown): string {
  const hash = createHash('sha256');
  for (const file of [...files].sort((a, b) => (a.fileName < b.fileName ? -1 : a.fileName > b.fileName ? 1 : 0))) {
    hash.update(file.fileName).update('\0').update(file.content).update('\0');
  }
  hash.update(JSON.stringify(rules));
  return hash.digest('base64url').slice(0, 16);
}

export interface BuildIdOptions {
  /** The build's timestamp source (tests pass a fixed one). */
  now?: () => number;
}

export function buildId({ now = Date.now }: BuildIdOptions = {}): Plugin {
  return {
    name: 'lander:build-id',
    apply: 'build',
    generateBundle: {
      // After Vite's own plugins, so the stylesheet and every chunk are in the bundle.
      order: 'post',
      handler(_options, bundle) {
        const files = Object.values(bundle)
          // Vite's manifest lists the same files by name; it would only add noise to the hash.
          .filter((file) => !file.fileName.startsWith('.vite/'))
          .map((file) => ({ fileName: file.fileName, content: file.type === 'chunk' ? file.code : file.source }));
        const matcher = buildManifest({ id: '', timestamp: 0 }, routeRules).matcher;
        const source = JSON.stringify({ id: contentHash(files, matcher), timestamp: now() });
        this.emitFile({ type: 'asset', fileName: BUILD_FILE, source });
      },
    },
  };
}
