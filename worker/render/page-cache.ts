/**
 * Rendered pages, kept per isolate (docs/decisions/005-keep-rendered-pages-per-isolate.md). The page
 * route renders from the hand-off (everything the screens read) and the URL (what the routes read),
 * and the hand-off is made from its inputs alone (`HandoffInputs`, handoff.ts: the page's address,
 * the language, the device's verdict, the configuration, the settings, …). The key is every one of
 * those inputs, taken from the very object the hand-off is made from, so nothing the page shows can
 * be missing from its key.
 * A kept page is the whole response: its bytes and every header, made once. It has no per-response
 * part: a complete page has no inline script, so its CSP needs no nonce (docs/security.md). The page's
 * view for the funnel is kept with it, so a kept page's view is counted without being built again.
 */
import { boundedCache, CACHE_SHARES } from '../lib/bounded-cache.ts';
import type { PageView } from '../lib/visit.ts';
import type { HandoffInputs } from './handoff.ts';

/** A kept page, ready to answer with: the same bytes and headers for every request with its key. */
export interface KeptPage {
  status: number;
  /** The page's UTF-8 bytes, with no nonce in them: a kept page has no inline script. */
  body: Uint8Array<ArrayBuffer>;
  /**
   * Every header of the response (page-headers.ts `nonceFreeHeaders`), made once when the page was kept: a
   * response copies a `Headers` natively, where a list of pairs is read and checked pair by pair.
   */
  headers: Headers;
  /** What a view of the page counts (lib/visit.ts); null for a page that is not counted. */
  view: PageView | null;
}

const pages = boundedCache<KeptPage>({
  maxBytes: CACHE_SHARES.pages,
  // The key (the URL and a number per input object) is counted by the cache; a page is ~7 kB.
  sizeOf: (page) => page.body.byteLength + 1_000,
});

const encoder = new TextEncoder();
const stats = { hits: 0, kept: 0, adopted: 0 };

/**
 * How often a kept page answered, how many renders were kept, how many pages another isolate kept
 * were taken in (location-pages.ts), how many are kept now.
 */
export function pageCacheStats(): Readonly<typeof stats> & { entries: number } {
  return { ...stats, entries: pages.size };
}

// A number per input object. The objects are made once and reused (a frozen device per detection,
// one configuration per KV read, one settings object per environment), so equal inputs are the same
// objects; a new object is a new key, never a wrong one. Held weakly: a dropped object drops its number.
const objectIds = new WeakMap<object, number>();
let nextObjectId = 0;

function partOf(value: HandoffInputs[keyof HandoffInputs]): string {
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
 * of `HandoffInputs` is in it, whatever fields it gains, so the key cannot miss what the page is made of.
 */
export function pageKey(inputs: HandoffInputs): string {
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

/** The kept page for `key`, if one is kept. */
export function keptPage(key: string): KeptPage | undefined {
  const page = pages.get(key);
  if (page !== undefined) stats.hits += 1;
  return page;
}

// An executable inline script: a <script> with no `src` that is not a data block.
const INLINE_SCRIPT = /<script(?![^>]*\bsrc=)(?![^>]*\btype="application\/json")[^>]*>/i;

/** Whether `html` has an executable inline script: a page that needs the CSP's nonce to work. */
export const hasInlineScript = (html: string): boolean => INLINE_SCRIPT.test(html);

/**
 * Keeps a rendered page (its text, or a copy of its stream read to the end) under `key` without its
 * nonce, and returns it (for the location: location-pages.ts): React put the nonce only on the
 * entry's tags, which the CSP's `'self'` allows anyway. A page that needed it (an inline script, from
 * a boundary that streamed late) is not kept: it is rendered for each request.
 */
export async function keepPage(
  key: string,
  source: ReadableStream<Uint8Array> | string,
  nonce: string,
  page: Omit<KeptPage, 'body'>,
): Promise<KeptPage | undefined> {
  const text = typeof source === 'string' ? source : await new Response(source).text();
  const html = text.replaceAll(` nonce="${nonce}"`, '');
  return html.includes(nonce) || hasInlineScript(html) ? undefined : keepDocument(key, html, page);
}

/**
 * Keeps `html` under `key` and returns it, its bytes encoded once: a page that needs no nonce, which
 * the caller checked (`hasInlineScript`) — render-complete.ts renders none other, `keepPage` takes it out.
 */
export function keepDocument(key: string, html: string, page: Omit<KeptPage, 'body'>): KeptPage {
  // TextEncoder's bytes are always a fresh ArrayBuffer of their own.
  const kept = { ...page, body: encoder.encode(html) as Uint8Array<ArrayBuffer> };
  pages.set(key, kept);
  stats.kept += 1;
  return kept;
}

/** Keeps `page`, kept whole by another isolate of the location (location-pages.ts), under `key`. */
export function adoptPage(key: string, page: KeptPage): void {
  pages.set(key, page);
  stats.adopted += 1;
}
