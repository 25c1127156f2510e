/**
 * Rendered pages, kept per isolate (issue 8, promise 8). A page is a pure function of what the render
 * reads: the URL, the headers detection reads (`deviceKey`), the language, the configuration in use, the
 * environment's variables and this build's assets — so the key is exactly those, and two requests that
 * would render the same bytes share one render. The CSP nonce is the only per-response part: the page is kept
 * cut where the nonce stood, and the parts are joined with a fresh nonce for every response.
 *
 * Anything new the render reads (in `clientStore`, a loader, a screen) must join `pageCacheKey`.
 */
import type { Context } from 'hono';
import type { LoadedConfig } from '../config/load-config.ts';
import type { AppEnv } from '../env.ts';
import { createLru } from '../lib/lru.ts';

export interface KeptPage {
  status: number;
  /** The page's UTF-8 bytes with the response's nonce in place. */
  body: Uint8Array<ArrayBuffer>;
}

/**
 * A kept page: its HTML as UTF-8, cut where the nonce goes, so a response only joins the parts with
 * its own nonce (no encoding of the page per response).
 */
interface StoredPage {
  status: number;
  bytes: Uint8Array[];
  /**
   * Every header the whole app gave a response with this page, each value cut at the nonce (the
   * CSP's) — recorded from the first response served from the kept page, so a later request can be
   * answered without running the app (`keptResponse`).
   */
  headers?: KeptHeaders;
}

/** A response's headers: those without the nonce as one object to copy, the others cut at it. */
interface KeptHeaders {
  fixed: Headers;
  nonced: [name: string, parts: string[]][];
}

const pages = createLru<StoredPage>({
  maxEntries: 500,
  maxSize: 24_000_000,
  // The key in UTF-16 code units (two bytes each in the isolate's memory), the page in bytes.
  sizeOf: (key, page) => 2 * key.length + page.bytes.reduce((sum, part) => sum + part.byteLength, 0),
});

/** A number per configuration object: a new document read from KV is a new object, so a new key. */
const configIds = new WeakMap<object, number>();
let nextConfigId = 0;

function configId(config: object): number {
  let id = configIds.get(config);
  if (id === undefined) {
    id = nextConfigId++;
    configIds.set(config, id);
  }
  return id;
}

const encoder = new TextEncoder();

// URLs some page was kept for: a quick "no" for every other request. Cleared when full (only a
// filter: a URL missing here is answered by the app, which keeps the page and adds it back).
const MAX_KEPT_URLS = 2_000;
const keptUrls = new Set<string>();

/** Whether a page may be kept for `url` (false: certainly none). */
export function mayBeKept(url: string): boolean {
  return keptUrls.has(url);
}

// hits: answers from a kept page; whole: of those, answered before the app ran (kept-pages.ts).
const stats = { hits: 0, whole: 0, kept: 0 };

/** How often a kept page answered (and how often without running the app), how many were kept. */
export function pageCacheStats(): Readonly<typeof stats> & { entries: number } {
  return { ...stats, entries: pages.size };
}

/** What a page's key is made of; see the file comment for why these parts and no others. */
export interface PageKeyParts {
  url: string;
  deviceKey: string;
  language: string;
  config: LoadedConfig;
  env: Env;
}

export function pageKeyOf({ url, deviceKey, language, config, env }: PageKeyParts): string {
  return [
    url,
    deviceKey,
    language,
    configId(config.config),
    config.fallback,
    env.LANDER_ENV,
    env.DIAGNOSTICS,
    env.DOWNLOAD_ORIGIN,
    env.TRACE_ORIGIN,
    env.DECODE_KEY ?? '',
  ].join('\n');
}

/** The key of the page `c` asks for. */
export function pageCacheKey(c: Context<AppEnv>): string {
  return pageKeyOf({
    url: c.req.url,
    deviceKey: c.get('deviceKey'),
    language: c.get('language'),
    config: c.get('config'),
    env: c.env,
  });
}

/** The kept page for `key` with `nonce` in place, if one is kept. */
export function cachedPage(key: string, nonce: string): KeptPage | undefined {
  const page = pages.get(key);
  if (page === undefined) return undefined;
  stats.hits += 1;
  return { status: page.status, body: joinBytes(page.bytes, encoder.encode(nonce)) };
}

/** Reads a copy of a rendered page to its end and keeps it, with its nonce taken out. */
export async function keepPage(
  url: string,
  key: string,
  status: number,
  stream: ReadableStream<Uint8Array>,
  nonce: string,
): Promise<void> {
  const html = await new Response(stream).text();
  pages.set(key, { status, bytes: html.split(nonce).map((part) => encoder.encode(part)) });
  if (keptUrls.size >= MAX_KEPT_URLS) keptUrls.clear();
  keptUrls.add(url);
  stats.kept += 1;
}

/**
 * Keeps the headers of a response that served the kept page `key` with `nonce`, unless they are
 * already kept or the response sets a cookie (a cookie is one visitor's, never a page's).
 */
export function keepHeaders(key: string, status: number, headers: Headers, nonce: string): void {
  const page = pages.get(key);
  if (!page || page.headers || page.status !== status || headers.has('set-cookie')) return;
  const fixed = new Headers();
  const nonced: KeptHeaders['nonced'] = [];
  for (const [name, value] of headers) {
    if (value.includes(nonce)) nonced.push([name, value.split(nonce)]);
    else fixed.append(name, value);
  }
  page.headers = { fixed, nonced };
}

/** The whole response for kept page `key` with `nonce`, once its headers are kept too. */
export function keptResponse(key: string, nonce: string): Response | undefined {
  const page = pages.get(key);
  if (!page?.headers) return undefined;
  stats.hits += 1;
  stats.whole += 1;
  // Copying a Headers object stays inside the runtime; only the CSP is set per response.
  const headers = new Headers(page.headers.fixed);
  for (const [name, parts] of page.headers.nonced) headers.set(name, parts.join(nonce));
  return new Response(joinBytes(page.bytes, encoder.encode(nonce)), { status: page.status, headers });
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

/** The status of kept page `key`, if it is kept. */
export function keptStatus(key: string): number | undefined {
  return pages.get(key)?.status;
}
