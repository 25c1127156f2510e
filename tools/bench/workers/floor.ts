/**
 * The floor (docs/benchmarks.md#the-floor): a worker that answers the kept page's exact bytes and
 * headers and does nothing else, behind the same front on the same workerd, so Lander's kept page is
 * measured against what any worker answering that page must cost. Its first request is sent on to
 * Lander (`LANDER`), at the address its `x-floor-capture` header names (the page as the bench asks
 * Lander for it, whose origin is in the page), until Lander answers it from its page cache
 * (`Server-Timing: kept;desc=hit`); from then on every request gets those bytes and headers.
 * Types only in this file: it is transpiled on its own into dist/bench.
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

export default {
  async fetch(request: Request, env: FloorEnv): Promise<Response> {
    if (page) return new Response(page.body, page);
    capturing ??= capture(request, env.LANDER);
    page = await capturing;
    return new Response(page.body, page);
  },
};
