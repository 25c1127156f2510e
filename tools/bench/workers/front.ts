/**
 * The benchmark server's front door (docs/benchmarks.md): like Cloudflare, a request for a file of the
 * client build is answered from the files, anything else by the worker. The file list is known when
 * the config is generated (as Cloudflare knows a deploy's assets), so deciding costs one set lookup;
 * the bytes come from workerd's native `disk` service. Static and SSR requests both pass through here,
 * so their throughputs compare fairly.
 *
 * Like Cloudflare's edge, it compresses text answers (the worker's pages and the build's scripts,
 * styles, JSON, SVG) for clients that accept it: brotli, else gzip. workerd encodes the body itself
 * when a response names its `Content-Encoding`. Clients that send no `Accept-Encoding` (wrk) get
 * the response as it is, untouched (Cloudflare's edge does this work natively, outside the worker's
 * CPU), so the throughput figures include neither compressing nor copying headers.
 *
 * The `assets` entrypoint is the worker's `ASSETS` binding: the same files, 404 for anything else.
 * Types only in this file: it is transpiled on its own into dist/bench.
 */

export interface FrontEnv {
  /** workerd's `disk` service over dist/client. */
  DISK: Fetcher;
  /** The production worker. */
  WORKER: Fetcher;
  /** Every servable path of dist/client, `/`-rooted, not percent-encoded (dist/bench/files.json). */
  FILES: string[];
}

// Cloudflare's asset server sends these types (text with a charset) and this cache policy by default.
const TYPES: Record<string, string> = {
  css: 'text/css; charset=utf-8',
  gif: 'image/gif',
  html: 'text/html; charset=utf-8',
  ico: 'image/x-icon',
  jpeg: 'image/jpeg',
  jpg: 'image/jpeg',
  js: 'text/javascript; charset=utf-8',
  json: 'application/json; charset=utf-8',
  map: 'application/json; charset=utf-8',
  mjs: 'text/javascript; charset=utf-8',
  png: 'image/png',
  svg: 'image/svg+xml; charset=utf-8',
  txt: 'text/plain; charset=utf-8',
  wasm: 'application/wasm',
  webmanifest: 'application/manifest+json; charset=utf-8',
  webp: 'image/webp',
  woff2: 'font/woff2',
  xml: 'application/xml; charset=utf-8',
};
const CACHE_CONTROL = 'public, max-age=0, must-revalidate';

let known: { list: string[]; set: Set<string> } | undefined;

function files(env: FrontEnv): Set<string> {
  if (known?.list !== env.FILES) known = { list: env.FILES, set: new Set(env.FILES) };
  return known.set;
}

/** The file a request names, if it is one of the build's files and the method reads it. */
export function fileFor(request: Request, env: FrontEnv): string | undefined {
  if (request.method !== 'GET' && request.method !== 'HEAD') return undefined;
  let path: string;
  try {
    path = decodeURIComponent(new URL(request.url).pathname);
  } catch {
    return undefined;
  }
  return files(env).has(path) ? path : undefined;
}

/** Content type by extension, as Cloudflare's asset server sends it. */
export function contentType(path: string): string {
  const extension = /\.([a-z0-9]+)$/i.exec(path)?.[1]?.toLowerCase() ?? '';
  return TYPES[extension] ?? 'application/octet-stream';
}

async function serveFile(path: string, request: Request, env: FrontEnv): Promise<Response> {
  const url = new URL('http://disk/');
  url.pathname = path;
  const file = await env.DISK.fetch(url, { method: request.method });
  if (!file.ok) return file;
  const headers = new Headers(file.headers);
  headers.set('content-type', contentType(path));
  headers.set('cache-control', CACHE_CONTROL);
  return new Response(file.body, { status: file.status, headers });
}

// Types Cloudflare compresses (its list includes these; images other than SVG are left alone).
const COMPRESSIBLE = /^(?:text\/|application\/(?:javascript|json|manifest\+json|xml)|image\/svg\+xml)/i;

/** The encoding to answer with for this `Accept-Encoding`: brotli first, as Cloudflare prefers. */
export function chooseEncoding(acceptEncoding: string | null): 'br' | 'gzip' | undefined {
  const offered = new Set(
    (acceptEncoding ?? '')
      .split(',')
      .map((part) => part.trim().toLowerCase())
      .filter((part) => !/;\s*q=0(?:\.0*)?$/.test(part))
      .map((part) => part.split(';')[0]?.trim()),
  );
  if (offered.has('br')) return 'br';
  if (offered.has('gzip')) return 'gzip';
  return undefined;
}

/** The response, marked for workerd to compress when the client accepts it and the type is text. */
export function compressed(request: Request, response: Response): Response {
  const type = response.headers.get('content-type') ?? '';
  // Partial content and answers already encoded stay as they are.
  if (!COMPRESSIBLE.test(type) || response.status === 206 || response.headers.has('content-encoding')) {
    return response;
  }
  const encoding = chooseEncoding(request.headers.get('accept-encoding'));
  // The worker's own bytes pass through untouched: any client may take them, so no cache can serve
  // them wrongly. Only an encoded answer says that it depends on Accept-Encoding.
  if (!encoding || !response.body) return response;
  const headers = new Headers(response.headers);
  headers.append('vary', 'Accept-Encoding');
  headers.set('content-encoding', encoding);
  headers.delete('content-length');
  return new Response(response.body, { status: response.status, statusText: response.statusText, headers });
}

/** The socket's handler: build files first, then the worker. */
export default {
  async fetch(request: Request, env: FrontEnv): Promise<Response> {
    const path = fileFor(request, env);
    return compressed(request, await (path ? serveFile(path, request, env) : env.WORKER.fetch(request)));
  },
} satisfies ExportedHandler<FrontEnv>;

/** The worker's `ASSETS` binding. */
export const assets = {
  async fetch(request: Request, env: FrontEnv): Promise<Response> {
    const path = fileFor(request, env);
    return path ? serveFile(path, request, env) : new Response('Not Found', { status: 404 });
  },
} satisfies ExportedHandler<FrontEnv>;
