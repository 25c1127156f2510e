/**
 * Rendered pages, kept per isolate (docs/decisions/005-keep-rendered-pages-per-isolate.md). The page
 * route renders from the client store seed (everything the screens read) and the URL (what the routes
 * read), and the seed is made from its inputs alone (`SeedInputs`, client-store.ts: the URL, the
 * language, the device, the configuration, the settings). The key is every one of those inputs, taken
 * from the very object the seed is made from, so nothing the page shows can be missing from its key.
 * The CSP nonce is the only per-response part:
 * a page is kept cut where its nonce stood, and each response joins the parts with its own nonce.
 * Headers are never kept: the app sets them for every response, a kept one included. The page's view
 * for the funnel is kept with it, so a kept page's view is counted without being built again.
 */
import type { PageView } from '../funnel/count-view.ts';
import { boundedCache, CACHE_SHARES } from '../lib/bounded-cache.ts';
import type { SeedInputs } from './client-store.ts';

/** A kept page with the response's nonce in place. */
export interface KeptPage {
  status: number;
  /** The page's UTF-8 bytes. */
  body: Uint8Array<ArrayBuffer>;
  /** What a view of the page counts (funnel/count-view.ts); null for a page that is not counted. */
  view: PageView | null;
  /** The key's short name (`pageId`). */
  id: string;
}

/** A kept page: its HTML as UTF-8, cut where the nonce goes (no encoding per response). */
interface StoredPage {
  status: number;
  parts: Uint8Array[];
  view: PageView | null;
  id: string;
}

const pages = boundedCache<StoredPage>({
  maxBytes: CACHE_SHARES.pages,
  // The key (the URL and a number per input object) is counted by the cache; a page is ~7 kB.
  sizeOf: (page) => page.parts.reduce((sum, part) => sum + part.byteLength, 0),
});

const encoder = new TextEncoder();
const stats = { hits: 0, kept: 0 };

/** How often a kept page answered, how many were kept, how many are kept now. */
export function pageCacheStats(): Readonly<typeof stats> & { entries: number } {
  return { ...stats, entries: pages.size };
}

// A number per input object. The objects are made once and reused (a frozen device per detection,
// one configuration per KV read, one settings object per environment), so equal inputs are the same
// objects; a new object is a new key, never a wrong one. Held weakly: a dropped object drops its number.
const objectIds = new WeakMap<object, number>();
let nextObjectId = 0;

function partOf(value: SeedInputs[keyof SeedInputs]): string {
  if (value === null || typeof value !== 'object') return String(value);
  if (value instanceof URL) return value.href;
  let id = objectIds.get(value);
  if (id === undefined) {
    id = nextObjectId++;
    objectIds.set(value, id);
  }
  return `#${id}`;
}

/**
 * The key of the page made from `inputs`: each input in turn, an object by its identity. Every field
 * of `SeedInputs` is in it, whatever fields it gains, so the key cannot miss what the page is made of.
 */
export function pageKey(inputs: SeedInputs): string {
  let key = '';
  for (const value of Object.values(inputs)) key += `${partOf(value)}\n`;
  return key;
}

/**
 * A short name of a page key (FNV-1a, base 36) for `Server-Timing` (docs/benchmarks.md): it tells
 * load tools how many kinds of page a traffic produced, without showing what they are made of.
 */
export function pageId(key: string): string {
  let hash = 0x811c9dc5;
  for (let i = 0; i < key.length; i += 1) hash = Math.imul(hash ^ key.charCodeAt(i), 0x01000193);
  return (hash >>> 0).toString(36);
}

/** The kept page for `key` with `nonce` in place, if one is kept. */
export function keptPage(key: string, nonce: string): KeptPage | undefined {
  const page = pages.get(key);
  if (page === undefined) return undefined;
  stats.hits += 1;
  return { status: page.status, body: joinBytes(page.parts, encoder.encode(nonce)), view: page.view, id: page.id };
}

/** Reads a copy of a rendered page to its end and keeps it under `key`, with its nonce taken out. */
export async function keepPage(
  key: string,
  status: number,
  stream: ReadableStream<Uint8Array>,
  nonce: string,
  view: PageView | null = null,
): Promise<void> {
  const html = await new Response(stream).text();
  pages.set(key, { status, parts: html.split(nonce).map((part) => encoder.encode(part)), view, id: pageId(key) });
  stats.kept += 1;
}

/** `parts` with `glue` between each two, as one array. */
function joinBytes(parts: readonly Uint8Array[], glue: Uint8Array): Uint8Array<ArrayBuffer> {
  const length = parts.reduce((sum, part) => sum + part.byteLength, 0) + glue.byteLength * (parts.length - 1);
  const out = new Uint8Array(length);
  let at = 0;
  parts.forEach((part, index) => {
    if (index > 0) {
      out.set(glue, at);
      at += glue.byteLength;
    }
    out.set(part, at);
    at += part.byteLength;
  });
  return out;
}
