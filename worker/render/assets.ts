/**
 * The client build's files, from Vite's manifest: the entry module, its CSS, and each lazy screen's
 * chunk, so the first response preloads exactly what hydration will need. Read once per isolate.
 */
import manifest from '../../dist/client/.vite/manifest.json';

interface ManifestChunk {
  file: string;
  css?: string[];
  imports?: string[];
  isEntry?: boolean;
}

const chunks = manifest as Record<string, ManifestChunk>;
const ENTRY_SOURCE = 'client/browser/entry.tsx';

function entryChunk(): ManifestChunk {
  const entry = chunks[ENTRY_SOURCE];
  if (!entry) throw new Error(`The client manifest has no entry for ${ENTRY_SOURCE}; run the client build`);
  return entry;
}

export interface PageAssets {
  /** The entry module, loaded by React's bootstrap script tag. */
  entry: string;
  /** Modules to preload: the screens' chunks and everything they import. */
  modules: string[];
  styles: string[];
}

const entry = entryChunk();

function collect(source: string, seen: Set<string>, modules: string[], styles: string[]): void {
  if (seen.has(source)) return;
  seen.add(source);
  const chunk = chunks[source];
  if (!chunk) return;
  if (source !== ENTRY_SOURCE) modules.push(`/${chunk.file}`);
  for (const css of chunk.css ?? []) styles.push(`/${css}`);
  for (const imported of chunk.imports ?? []) collect(imported, seen, modules, styles);
}

/** Assets for a page whose matched screens come from `screenSources`. */
export function pageAssets(screenSources: readonly string[]): PageAssets {
  const seen = new Set<string>();
  const modules: string[] = [];
  const styles: string[] = [];
  collect(ENTRY_SOURCE, seen, modules, styles);
  for (const source of screenSources) collect(source, seen, modules, styles);
  return { entry: `/${entry.file}`, modules, styles };
}
