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
import type { AppEnv } from '../env.ts';
import { createLru } from '../lib/lru.ts';

export interface KeptPage {
  status: number;
  html: string;
}

/** A kept page: its HTML cut where the nonce goes, so a response only joins the parts with its own. */
interface StoredPage {
  status: number;
  parts: string[];
}

const pages = createLru<StoredPage>({
  maxEntries: 500,
  maxSize: 24_000_000,
  // UTF-16 code units: two bytes each in the isolate's memory.
  sizeOf: (key, page) => 2 * (key.length + page.parts.reduce((sum, part) => sum + part.length, 0)),
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

const stats = { hits: 0, kept: 0 };

/** How often a kept page answered, and how many pages were kept, in this isolate. */
export function pageCacheStats(): Readonly<typeof stats> & { entries: number } {
  return { ...stats, entries: pages.size };
}

/** The key of the page `c` asks for; see the file comment for why these parts and no others. */
export function pageCacheKey(c: Context<AppEnv>): string {
  const { config, fallback } = c.get('config');
  const env = c.env;
  return [
    c.req.url,
    c.get('deviceKey'),
    c.get('language'),
    configId(config),
    fallback,
    env.LANDER_ENV,
    env.DIAGNOSTICS,
    env.DOWNLOAD_ORIGIN,
    env.TRACE_ORIGIN,
    env.DECODE_KEY ?? '',
  ].join('\n');
}

/** The kept page for `key` with `nonce` in place, if one is kept. */
export function cachedPage(key: string, nonce: string): KeptPage | undefined {
  const page = pages.get(key);
  if (page === undefined) return undefined;
  stats.hits += 1;
  return { status: page.status, html: page.parts.join(nonce) };
}

/** Reads a copy of a rendered page to its end and keeps it, with its nonce taken out. */
export async function keepPage(
  key: string,
  status: number,
  stream: ReadableStream<Uint8Array>,
  nonce: string,
): Promise<void> {
  const html = await new Response(stream).text();
  pages.set(key, { status, parts: html.split(nonce) });
  stats.kept += 1;
}
