/**
 * Kept pages shared by every isolate of a location, through Cloudflare's Cache API
 * (docs/decisions/010-share-kept-pages-across-isolates.md). An isolate starts with no kept page
 * (page-cache.ts); before it renders a page, it looks for the page another isolate of the location
 * kept, under a key made of the page's inputs by content (an isolate's own keys name objects by
 * identity, which means nothing to another isolate) and of this deploy (its version id, the client
 * build, the page's headers), so a deploy never answers with the previous one's pages. The entry holds the page's bytes and its headers, the per-response ones
 * aside (`Server-Timing`); pages have no cookie and no nonce, and the view's dimensions are the page's
 * (lib/visit.ts), not the visitor's. Reads are raced against a short budget: a slow or
 * failing cache costs a render, never the page.
 */
import manifest from '../../dist/client/.vite/manifest.json';
import type { PageView } from '../lib/visit.ts';
import { withinBudget } from '../lib/within-budget.ts';
import type { HandoffInputs } from './handoff.ts';

/** How long a lookup may take before the page is rendered instead (Cache API reads are in-colo). */
export const LOOKUP_BUDGET_MS = 15;
/** How long a location keeps a page; a new configuration or build is a new key, so this only frees space. */
const KEEP_SECONDS = 3600;
/** The synthetic path under the request's own origin that names a page (never routed: only a cache key). */
const KEY_PATH = '/.lander/kept-page/';

/** A page as the location keeps it: what an isolate needs to answer it and keep it itself. */
export interface LocationPage {
  status: number;
  body: Uint8Array<ArrayBuffer>;
  /** The page's headers, `Server-Timing` left out: it says per response whether the page was kept. */
  headers: [string, string][];
  view: PageView | null;
}

const HEX = Array.from({ length: 256 }, (_, byte) => byte.toString(16).padStart(2, '0'));
function hex(bytes: ArrayBuffer): string {
  let text = '';
  for (const byte of new Uint8Array(bytes)) text += HEX[byte];
  return text;
}
const sha256 = async (text: string): Promise<string> =>
  hex(await crypto.subtle.digest('SHA-256', new TextEncoder().encode(text)));

// Each input object's digest, once per object (the objects are reused: page-cache.ts), so a key
// hashes a few digests rather than a whole configuration. A Set (the settings' origins) is written as
// its sorted members, so equal contents give equal text.
const digests = new WeakMap<object, Promise<string>>();
const replacer = (_key: string, value: unknown): unknown => (value instanceof Set ? [...value].sort() : value);

function partOf(value: HandoffInputs[keyof HandoffInputs]): string | Promise<string> {
  if (value === null || typeof value !== 'object') return JSON.stringify(value) ?? 'undefined';
  if (value instanceof URL) return value.href;
  let digest = digests.get(value);
  if (digest === undefined) {
    digest = sha256(JSON.stringify(value, replacer));
    digests.set(value, digest);
  }
  return digest;
}

// The page's headers as text, once per list (the page route passes one constant list: page-headers.ts).
const headerTexts = new WeakMap<object, string>();

// The client build (every file name is hashed by content): a deploy that changes it is a new key.
// Digested on first use: a worker's global scope may not wait on anything.
let build: Promise<string> | undefined;

/** What a page's location key is made of besides its inputs: the deploy's. */
export interface PageVersion {
  /** The deploy's version id (`CF_VERSION_METADATA`, wrangler.toml): any code change is a new key. */
  deploy: string;
  /** The page's headers as this code makes them. */
  headers: readonly [string, string][];
}

/**
 * The location's key of the page made from `inputs` by the deploy `version`: a URL on `origin` whose
 * path is the SHA-256 of every input by content, the deploy's version id, the client build and the
 * page's headers.
 */
export async function locationKey(origin: string, inputs: HandoffInputs, version: PageVersion): Promise<string> {
  build ??= sha256(JSON.stringify(manifest));
  const { deploy, headers } = version;
  let headersText = headerTexts.get(headers);
  if (headersText === undefined) {
    headersText = JSON.stringify(headers);
    headerTexts.set(headers, headersText);
  }
  const parts = await Promise.all([deploy, build, headersText, ...Object.values(inputs).map(partOf)]);
  return `${origin}${KEY_PATH}${await sha256(parts.join('\n'))}`;
}

const NEWLINE = 0x0a;
const stats = { found: 0, stored: 0 };

/** How many pages this isolate found kept by the location, and how many it kept there. */
export function locationStats(): Readonly<typeof stats> {
  return { ...stats };
}

function isHeaderList(value: unknown): value is [string, string][] {
  return (
    Array.isArray(value) &&
    value.every((h) => Array.isArray(h) && h.length === 2 && h.every((s) => typeof s === 'string'))
  );
}

/** Reads an entry: one line of JSON (status, headers, view; JSON has no raw newline), then the page's bytes. */
async function read(key: string, cache?: Pick<Cache, 'match'>): Promise<LocationPage | undefined> {
  // Inside the promise: a runtime without the Cache API is a failed read, not a thrown error.
  const response = await (cache ?? caches.default).match(key);
  if (!response) return undefined;
  const bytes = new Uint8Array(await response.arrayBuffer());
  const end = bytes.indexOf(NEWLINE);
  if (end < 0) return undefined;
  const meta = JSON.parse(new TextDecoder().decode(bytes.subarray(0, end))) as Partial<LocationPage>;
  if (typeof meta.status !== 'number' || !isHeaderList(meta.headers)) return undefined;
  return { status: meta.status, headers: meta.headers, view: meta.view ?? null, body: bytes.subarray(end + 1) };
}

/**
 * The page the location keeps under `key` in `cache` (`caches.default` unless given), if any is found
 * within `budgetMs`. A failure (a
 * broken entry, a cache that throws) and a late answer are both a miss: the caller renders.
 */
export async function locationPage(
  key: string,
  budgetMs = LOOKUP_BUDGET_MS,
  cache?: Pick<Cache, 'match'>,
): Promise<LocationPage | undefined> {
  const found = read(key, cache).catch((error: unknown) => {
    console.error('Location page cache read', error);
    return undefined;
  });
  const page = await withinBudget(found, budgetMs, () => undefined);
  if (page) stats.found += 1;
  return page;
}

/** Keeps `page` for every isolate of the location under `key` (run it under `waitUntil`). */
export async function shareWithLocation(key: string, page: LocationPage): Promise<void> {
  const meta = new TextEncoder().encode(
    `${JSON.stringify({ status: page.status, headers: page.headers, view: page.view })}\n`,
  );
  const body = new Uint8Array(meta.byteLength + page.body.byteLength);
  body.set(meta);
  body.set(page.body, meta.byteLength);
  // The cache's own headers only: the page's are in the entry, and the cache must be allowed to keep it.
  const entry = new Response(body, {
    headers: { 'cache-control': `public, max-age=${KEEP_SECONDS}`, 'content-type': 'application/octet-stream' },
  });
  await caches.default.put(key, entry);
  stats.stored += 1;
}
