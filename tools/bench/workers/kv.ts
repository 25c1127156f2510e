/**
 * In-memory Workers KV for the benchmark server (`workerd serve`, docs/benchmarks.md). workerd's
 * `kvNamespace` binding turns every KV call into an HTTP request to a service; this worker is that
 * service. It is seeded from a JSON file (wrangler's bulk format) and can be told to fail, so load
 * runs can measure the page under KV faults (docs/config.md: unreadable config never breaks the page).
 *
 * Wire format, as workerd's binding sends it (the host is always `fake-host`):
 *   GET    /{key}?urlencoded=true[&cache_ttl=S]        → 200 value (CF-KV-Metadata, CF-Expiration) | 404
 *   POST   /bulk/get {"keys", "type"?, "withMetadata"?} → 200 {"key": value | {value, metadata} | null}
 *   PUT    /{key}?urlencoded=true[&expiration=S | &expiration_ttl=S], CF-KV-Metadata header
 *   DELETE /{key}?urlencoded=true
 *   GET    /?key_count_limit=N&prefix=P&cursor=C        → {keys: [{name, expiration?, metadata?}], list_complete, cursor?}
 *
 * The `control` entrypoint (its own loopback socket) steers it: `GET /` (fault, stats, key count),
 * `PUT /fault` (a KvFault), `PUT /entries` (replace the store), `DELETE /stats`.
 * Types only in this file: it is transpiled on its own into dist/bench.
 */

/** One key as wrangler's `kv bulk put` file has it (also the shape of `localSeed()`). */
export interface KvSeedEntry {
  key: string;
  value: string;
  base64?: boolean;
  /** Seconds since the epoch. */
  expiration?: number;
  expiration_ttl?: number;
  metadata?: unknown;
}

export type KvFaultMode = 'none' | 'throw' | 'error' | 'null' | 'non-json' | 'hang';

/**
 * How the namespace misbehaves. `throw`: the service throws (the binding call rejects); `error`: it
 * answers 500; `null`: every read finds nothing; `non-json`: reads answer an HTML error body; `hang`:
 * every call waits `ms` (default 5000) before answering normally. `prefix` limits the fault to keys
 * (or list prefixes) starting with it.
 */
export interface KvFault {
  mode: KvFaultMode;
  ms?: number;
  prefix?: string;
}

export interface KvStats {
  get: number;
  bulkGet: number;
  put: number;
  delete: number;
  list: number;
  faulted: number;
}

export interface KvServiceEnv {
  /** Initial entries (a `json` binding embedding dist/bench/kv-seed.json). */
  SEED?: KvSeedEntry[];
}

interface StoredValue {
  value: Uint8Array<ArrayBuffer>;
  /** Seconds since the epoch. */
  expiration?: number;
  metadata?: unknown;
}

const MODES: readonly KvFaultMode[] = ['none', 'throw', 'error', 'null', 'non-json', 'hang'];
const LIST_LIMIT = 1000;
const NON_JSON_BODY = '<!doctype html><title>502 Bad Gateway</title>';
const encoder = new TextEncoder();
const decoder = new TextDecoder();

// The store is this isolate's state on purpose: it *is* the namespace, living as long as the server.
let store: Map<string, StoredValue> | undefined;
let fault: KvFault = { mode: 'none' };
let stats: KvStats = { get: 0, bulkGet: 0, put: 0, delete: 0, list: 0, faulted: 0 };

const nowSeconds = (): number => Math.floor(Date.now() / 1000);

function isRecord(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

function decodeBase64(text: string): Uint8Array<ArrayBuffer> {
  return Uint8Array.from(atob(text), (char) => char.charCodeAt(0));
}

/** Validates seed entries; returns an error message for the first bad one. */
export function parseSeed(input: unknown): Map<string, StoredValue> | string {
  if (!Array.isArray(input)) return 'entries must be an array';
  const entries = new Map<string, StoredValue>();
  for (const [index, entry] of input.entries()) {
    if (!isRecord(entry) || typeof entry.key !== 'string' || entry.key === '' || typeof entry.value !== 'string') {
      return `entry ${index} needs a non-empty string key and a string value`;
    }
    let value: Uint8Array<ArrayBuffer>;
    try {
      value = entry.base64 === true ? decodeBase64(entry.value) : encoder.encode(entry.value);
    } catch {
      return `entry ${index} is not valid base64`;
    }
    const ttl = typeof entry.expiration_ttl === 'number' ? nowSeconds() + entry.expiration_ttl : undefined;
    const expiration = typeof entry.expiration === 'number' ? entry.expiration : ttl;
    entries.set(entry.key, { value, expiration, metadata: entry.metadata });
  }
  return entries;
}

/** Validates a fault description from the control socket. */
export function parseFault(input: unknown): KvFault | string {
  if (!isRecord(input) || !MODES.includes(input.mode as KvFaultMode)) return `mode must be one of ${MODES.join(', ')}`;
  const { ms, prefix } = input;
  if (ms !== undefined && (typeof ms !== 'number' || !Number.isFinite(ms) || ms < 0 || ms > 600_000)) {
    return 'ms must be a number of milliseconds from 0 to 600000';
  }
  if (prefix !== undefined && typeof prefix !== 'string') return 'prefix must be a string';
  return { mode: input.mode as KvFaultMode, ms, prefix };
}

function namespace(env: KvServiceEnv): Map<string, StoredValue> {
  if (!store) {
    const seeded = parseSeed(env.SEED ?? []);
    if (typeof seeded === 'string') throw new Error(`Invalid KV seed: ${seeded}`);
    store = seeded;
  }
  return store;
}

function read(entries: Map<string, StoredValue>, key: string): StoredValue | undefined {
  const entry = entries.get(key);
  if (entry?.expiration !== undefined && entry.expiration <= nowSeconds()) {
    entries.delete(key);
    return undefined;
  }
  return entry;
}

/** KV orders keys by their UTF-8 bytes, which differs from JS string order above U+FFFF. */
function compareKeys(a: string, b: string): number {
  const x = encoder.encode(a);
  const y = encoder.encode(b);
  for (let i = 0; i < Math.min(x.length, y.length); i++) {
    if (x[i] !== y[i]) return (x[i] ?? 0) - (y[i] ?? 0);
  }
  return x.length - y.length;
}

/** The key a request names; `undefined` when its percent-encoding is broken. */
function keyOf(url: URL): string | undefined {
  const raw = url.pathname.slice(1);
  if (url.searchParams.get('urlencoded') !== 'true') return raw;
  try {
    return decodeURIComponent(raw);
  } catch {
    return undefined;
  }
}

/** Parses a JSON body; `undefined` when it is not JSON. */
async function jsonBody(request: Request): Promise<unknown> {
  try {
    return await request.json();
  } catch {
    return undefined;
  }
}

const badRequest = (message: string): Response => new Response(message, { status: 400 });

function list(entries: Map<string, StoredValue>, url: URL, faulted: boolean): Response {
  const prefix = url.searchParams.get('prefix') ?? '';
  const limit = Math.min(Number(url.searchParams.get('key_count_limit') ?? LIST_LIMIT) || LIST_LIMIT, LIST_LIMIT);
  const start = Number(url.searchParams.get('cursor') ?? 0) || 0;
  const names = faulted
    ? []
    : [...entries.keys()].filter((name) => name.startsWith(prefix) && read(entries, name)).sort(compareKeys);
  const page = names.slice(start, start + limit);
  const keys = page.map((name) => {
    const entry = entries.get(name);
    return {
      name,
      ...(entry?.expiration !== undefined && { expiration: entry.expiration }),
      // workerd parses list metadata from JSON text.
      ...(entry?.metadata !== undefined && { metadata: JSON.stringify(entry.metadata) }),
    };
  });
  const complete = start + limit >= names.length;
  return Response.json({
    keys,
    list_complete: complete,
    ...(!complete && { cursor: String(start + limit) }),
    cacheStatus: null,
  });
}

function bulkGet(entries: Map<string, StoredValue>, body: unknown, faulted: boolean): Response {
  if (!isRecord(body) || !Array.isArray(body.keys)) return badRequest('keys must be an array');
  const result: Record<string, unknown> = {};
  for (const key of body.keys) {
    if (typeof key !== 'string') return badRequest('keys must be strings');
    const entry = faulted ? undefined : read(entries, key);
    if (!entry) {
      result[key] = null;
      continue;
    }
    const text = decoder.decode(entry.value);
    let value: unknown = text;
    if (body.type === 'json') {
      try {
        value = JSON.parse(text);
      } catch {
        return badRequest('At least one of the requested keys corresponds to a non-json value');
      }
    }
    result[key] = body.withMetadata === true ? { value, metadata: entry.metadata ?? null } : value;
  }
  return Response.json(result);
}

async function put(entries: Map<string, StoredValue>, request: Request, url: URL, key: string): Promise<Response> {
  const expiration = Number(url.searchParams.get('expiration') ?? Number.NaN);
  const ttl = Number(url.searchParams.get('expiration_ttl') ?? Number.NaN);
  const rawMetadata = request.headers.get('cf-kv-metadata');
  let metadata: unknown;
  try {
    metadata = rawMetadata === null ? undefined : JSON.parse(rawMetadata);
  } catch {
    return badRequest('CF-KV-Metadata must be JSON');
  }
  entries.set(key, {
    value: new Uint8Array(await request.arrayBuffer()),
    expiration: Number.isFinite(ttl) ? nowSeconds() + ttl : Number.isFinite(expiration) ? expiration : undefined,
    metadata,
  });
  return new Response(null);
}

function getOne(entries: Map<string, StoredValue>, key: string, faulted: boolean): Response {
  const entry = faulted ? undefined : read(entries, key);
  if (!entry) return new Response('Not Found', { status: 404 });
  const headers = new Headers();
  if (entry.expiration !== undefined) headers.set('cf-expiration', String(entry.expiration));
  if (entry.metadata !== undefined) headers.set('cf-kv-metadata', JSON.stringify(entry.metadata));
  return new Response(entry.value, { headers });
}

/** The keys a request touches (a bulk get's are in its body), to match a prefix-limited fault. */
function touchedKeys(url: URL, body: unknown): string[] {
  if (isRecord(body) && Array.isArray(body.keys)) return body.keys.filter((k) => typeof k === 'string');
  return url.pathname === '/' ? [url.searchParams.get('prefix') ?? ''] : [keyOf(url) ?? ''];
}

function applies(url: URL, body: unknown): boolean {
  if (fault.mode === 'none') return false;
  const prefix = fault.prefix;
  return !prefix || touchedKeys(url, body).some((key) => key.startsWith(prefix));
}

async function serve(request: Request, env: KvServiceEnv): Promise<Response> {
  const entries = namespace(env);
  const url = new URL(request.url);
  const isRead = request.method === 'GET' || request.method === 'POST';
  const body = request.method === 'POST' ? await jsonBody(request) : undefined;
  const faulted = applies(url, body);
  if (faulted) {
    stats.faulted++;
    if (fault.mode === 'throw') throw new Error('KV fault injected: throw');
    if (fault.mode === 'error') return new Response('KV fault injected', { status: 500 });
    if (fault.mode === 'hang') await new Promise((resolve) => setTimeout(resolve, fault.ms ?? 5000));
    if (fault.mode === 'non-json' && isRead) {
      return new Response(NON_JSON_BODY, { status: 200, headers: { 'content-type': 'text/html' } });
    }
  }
  const readsNothing = faulted && fault.mode === 'null';

  if (request.method === 'POST' && url.pathname === '/bulk/get') {
    stats.bulkGet++;
    return bulkGet(entries, body, readsNothing);
  }
  if (request.method === 'GET' && url.pathname === '/') {
    stats.list++;
    return list(entries, url, readsNothing);
  }
  const key = keyOf(url);
  if (key === undefined) return badRequest('Could not URL-decode key name');
  if (key === '') return badRequest('Key names must not be empty');
  if (request.method === 'GET') {
    stats.get++;
    return getOne(entries, key, readsNothing);
  }
  if (request.method === 'PUT') {
    stats.put++;
    return put(entries, request, url, key);
  }
  if (request.method === 'DELETE') {
    stats.delete++;
    entries.delete(key);
    return new Response(null);
  }
  return new Response('Method Not Allowed', { status: 405 });
}

async function steer(request: Request, env: KvServiceEnv): Promise<Response> {
  const { pathname } = new URL(request.url);
  const entries = namespace(env);
  if (request.method === 'GET' && pathname === '/') return Response.json({ fault, stats, keys: entries.size });
  if (request.method === 'DELETE' && pathname === '/stats') {
    stats = { get: 0, bulkGet: 0, put: 0, delete: 0, list: 0, faulted: 0 };
    return Response.json(stats);
  }
  if (request.method === 'PUT' && (pathname === '/fault' || pathname === '/entries')) {
    const body = await jsonBody(request);
    const parsed = pathname === '/fault' ? parseFault(body) : parseSeed(body);
    if (typeof parsed === 'string') return badRequest(parsed);
    if (parsed instanceof Map) store = parsed;
    else fault = parsed;
    return Response.json({ fault, keys: namespace(env).size });
  }
  return new Response('Not Found', { status: 404 });
}

/** The namespace, as workerd's `kvNamespace` binding calls it. */
export default {
  fetch(request: Request, env: KvServiceEnv): Promise<Response> {
    return serve(request, env);
  },
} satisfies ExportedHandler<KvServiceEnv>;

/** The control socket: fault injection, seeding and counters for load tests. */
export const control = {
  fetch(request: Request, env: KvServiceEnv): Promise<Response> {
    return steer(request, env);
  },
} satisfies ExportedHandler<KvServiceEnv>;
