/**
 * The location's cache for the bench (docs/benchmarks.md#a-new-isolate): workerd sends every Cache
 * API call of a worker to its `cacheApiOutbound` service, and this in-memory service answers them as
 * Cloudflare's cache would for one location, so two isolates of the bench's workerd share what either
 * keeps (decision 008). The protocol is workerd's, as miniflare's cache service speaks it:
 * - `PUT <url>`: the body is the response to keep as an HTTP/1.1 message (status line, headers, blank
 *   line, body). It is kept for its `Cache-Control` `s-maxage` or `max-age`; `no-store`, `private`,
 *   no lifetime or a `Set-Cookie` keep nothing (413, as miniflare answers).
 * - `GET <url>`: the kept response with `CF-Cache-Status: HIT`, else 504 with `CF-Cache-Status: MISS`.
 * - `PURGE <url>`: deletes it (404 when nothing was kept).
 * Named caches (`caches.open`) arrive with a `cf-cache-namespace` header and are kept apart.
 * Like a location's cache, it holds a bounded amount (`MAX_BYTES`) and drops the least recently used
 * entries past it: kept for ever, a load of new pages made the bench's process grow by about 11 kB a
 * page (3.9 GB after 320,000), and collecting that heap cost the same process's CPU.
 * Types only in this file: it is transpiled on its own into dist/bench (and workerd takes only
 * functions and handlers as a module's exports).
 */

export interface Kept {
  status: number;
  headers: [string, string][];
  body: Uint8Array<ArrayBuffer>;
  expires: number;
}

/** How much the service holds, bodies and keys, before it drops the least recently used entries. */
const MAX_BYTES = 64 * 2 ** 20;

/** Entries by key, the least recently used first, within `maxBytes`. */
export class LocationStore {
  readonly #entries = new Map<string, Kept>();
  #bytes = 0;
  readonly maxBytes: number;

  constructor(maxBytes = MAX_BYTES) {
    this.maxBytes = maxBytes;
  }

  get bytes(): number {
    return this.#bytes;
  }

  /** The entry kept under `key` and not expired at `now` (then the most recently used), if any. */
  get(key: string, now = Date.now()): Kept | undefined {
    const entry = this.#entries.get(key);
    if (entry === undefined) return undefined;
    this.delete(key);
    if (entry.expires <= now) return undefined;
    this.#add(key, entry);
    return entry;
  }

  set(key: string, entry: Kept): void {
    this.delete(key);
    this.#add(key, entry);
    for (const oldest of this.#entries.keys()) {
      if (this.#bytes <= this.maxBytes) break;
      this.delete(oldest);
    }
  }

  delete(key: string): boolean {
    const entry = this.#entries.get(key);
    if (entry === undefined) return false;
    this.#entries.delete(key);
    this.#bytes -= sizeOf(key, entry);
    return true;
  }

  #add(key: string, entry: Kept): void {
    this.#entries.set(key, entry);
    this.#bytes += sizeOf(key, entry);
  }
}

const sizeOf = (key: string, entry: Kept): number => 2 * key.length + entry.body.byteLength;

const kept = new LocationStore();
const CRLF2 = [13, 10, 13, 10];

function keyOf(request: Request): string {
  return `${request.headers.get('cf-cache-namespace') ?? ''} ${request.url}`;
}

/** Seconds a response may be kept by a shared cache, 0 for none. */
export function lifetime(headers: Headers): number {
  const control = (headers.get('cache-control') ?? '').toLowerCase();
  if (/\b(no-store|private)\b/.test(control) || headers.has('set-cookie')) return 0;
  const seconds = /\bs-maxage=(\d+)/.exec(control) ?? /\bmax-age=(\d+)/.exec(control);
  return seconds ? Number(seconds[1]) : 0;
}

/** Splits an HTTP/1.1 response message into status, headers and body. */
export function parseMessage(bytes: Uint8Array): { status: number; headers: Headers; body: Uint8Array } {
  // The first CR LF CR LF: each CR found natively, then its next three bytes compared.
  let end = bytes.indexOf(13);
  while (end >= 0 && !CRLF2.every((byte, j) => bytes[end + j] === byte)) end = bytes.indexOf(13, end + 1);
  if (end < 0) throw new Error('no blank line in the HTTP message');
  const [statusLine = '', ...lines] = new TextDecoder().decode(bytes.subarray(0, end)).split('\r\n');
  const status = Number(/^HTTP\/\d(?:\.\d)? (\d{3})/.exec(statusLine)?.[1]);
  if (!Number.isInteger(status)) throw new Error(`not a status line: ${statusLine}`);
  const headers = new Headers();
  for (const line of lines) {
    const colon = line.indexOf(':');
    if (colon > 0) headers.append(line.slice(0, colon).trim(), line.slice(colon + 1).trim());
  }
  return { status, headers, body: bytes.subarray(end + 4) };
}

export default {
  async fetch(request: Request): Promise<Response> {
    const key = keyOf(request);
    if (request.method === 'PUT') {
      const { status, headers, body } = parseMessage(new Uint8Array(await request.arrayBuffer()));
      const seconds = lifetime(headers);
      if (seconds === 0) return new Response(null, { status: 413 });
      kept.set(key, {
        status,
        headers: [...headers],
        body: body.slice() as Uint8Array<ArrayBuffer>,
        expires: Date.now() + seconds * 1000,
      });
      return new Response(null, { status: 204 });
    }
    if (request.method === 'PURGE') return new Response(null, { status: kept.delete(key) ? 200 : 404 });
    const entry = kept.get(key);
    if (entry === undefined) return new Response(null, { status: 504, headers: { 'cf-cache-status': 'MISS' } });
    const headers = new Headers(entry.headers);
    headers.set('cf-cache-status', 'HIT');
    return new Response(entry.body, { status: entry.status, headers });
  },
};
