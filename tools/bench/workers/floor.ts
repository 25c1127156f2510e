/**
 * The floor (docs/benchmarks.md#the-floor): a worker that answers the kept page's exact bytes and
 * headers and does nothing else, behind the same front on the same workerd, so Lander's kept page is
 * measured against what any worker answering that page must cost. Its first request is sent on to
 * Lander (`LANDER`), at the address its `x-floor-capture` header names (the page as the bench asks
 * Lander for it, whose origin is in the page), until Lander answers it from its page cache
 * (`Server-Timing: kept;desc=hit`); from then on every request gets those bytes and headers.
 *
 * Its `miss` entrypoint (a socket of its own) is the floor of a first visitor: what any worker that
 * shares a new page with its location pays besides rendering it. It looks its URL up in the
 * location's cache (the bench's cache service, as Lander's lookup does), and on a miss answers the
 * page and keeps it there after the response, as one entry of the page's headers and bytes, the size
 * Lander keeps (worker/render/location-pages.ts); on a hit it answers what was kept. `Server-Timing` says
 * which (`location;desc=miss|hit`). Types only in this file: it is transpiled on its own into dist/bench.
 */

interface FloorEnv {
  LANDER: Fetcher;
}

interface Page {
  status: number;
  headers: Headers;
  body: Uint8Array<ArrayBuffer>;
}

let page: Page | undefined;
let capturing: Promise<Page> | undefined;
let entry: Uint8Array<ArrayBuffer> | undefined;

/** What the location keeps of `kept`, made once: a line of its status and headers, then its bytes. */
function entryOf(kept: Page): Uint8Array<ArrayBuffer> {
  if (entry) return entry;
  const meta = new TextEncoder().encode(`${JSON.stringify({ status: kept.status, headers: [...kept.headers] })}\n`);
  entry = new Uint8Array(meta.byteLength + kept.body.byteLength);
  entry.set(meta);
  entry.set(kept.body, meta.byteLength);
  return entry;
}

async function capture(request: Request, lander: Fetcher): Promise<Page> {
  const url = request.headers.get('x-floor-capture') ?? request.url;
  const headers = new Headers(request.headers);
  headers.delete('x-floor-capture');
  for (let attempt = 0; attempt < 5; attempt += 1) {
    const response = await lander.fetch(url, { headers });
    const body = new Uint8Array(await response.arrayBuffer());
    if ((response.headers.get('server-timing') ?? '').startsWith('kept;desc=hit')) {
      return { status: response.status, headers: new Headers(response.headers), body };
    }
    // A render is kept after its response: give it a moment.
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
  throw new Error('Lander never answered this request from its page cache');
}

/** workerd's default cache (the DOM's `CacheStorage` type, which this file is checked with, has no `default`). */
const location = (): Cache => (caches as CacheStorage & { default: Cache }).default;

const ENTRY_HEADERS = { 'cache-control': 'public, max-age=3600', 'content-type': 'application/octet-stream' };

/** The first visitor's floor: a lookup in the location's cache, then the page, kept there after the response. */
async function firstVisit(request: Request, kept: Page, ctx: ExecutionContext): Promise<Response> {
  const found = await location().match(request.url);
  const headers = new Headers(kept.headers);
  headers.set('server-timing', `location;desc=${found ? 'hit' : 'miss'}`);
  if (found) {
    const bytes = new Uint8Array(await found.arrayBuffer());
    return new Response(bytes.subarray(bytes.indexOf(10) + 1), { status: kept.status, headers });
  }
  ctx.waitUntil(location().put(request.url, new Response(entryOf(kept), { headers: ENTRY_HEADERS })));
  return new Response(kept.body, { status: kept.status, headers });
}

async function captured(request: Request, env: FloorEnv): Promise<Page> {
  capturing ??= capture(request, env.LANDER);
  page = await capturing;
  return page;
}

export default {
  async fetch(request: Request, env: FloorEnv): Promise<Response> {
    if (page) return new Response(page.body, page);
    const kept = await captured(request, env);
    return new Response(kept.body, kept);
  },
};

/** The first visitor's floor (workerd's `entrypoint = "miss"`). */
export const miss = {
  async fetch(request: Request, env: FloorEnv, ctx: ExecutionContext): Promise<Response> {
    const kept = page ?? (await captured(request, env));
    return firstVisit(request, kept, ctx);
  },
};
