/**
 * The worker's one way to remember work per isolate (docs/decisions/005-keep-rendered-pages-per-isolate.md):
 * a least-recently-used map bounded by bytes. Every memo of the worker is one of these, each with its
 * share of one budget (`CACHE_SHARES`), so what an isolate keeps stays under `ISOLATE_CACHE_BUDGET`
 * whatever the traffic. (The configuration loader's last document, one at a time, the parsed
 * settings, one object per environment, and the page key's numbers for those objects, held weakly
 * by the objects themselves, are not memos of many keys and need no bound.)
 * Per-isolate state only: what is kept is a pure function of its key, never one visitor's.
 */

/** The most all of an isolate's caches together may hold (an isolate has 128 MiB in all). */
export const ISOLATE_CACHE_BUDGET = 10 * 2 ** 20;

/** Each cache's share of `ISOLATE_CACHE_BUDGET`, in bytes; the shares add up to at most the budget. */
export const CACHE_SHARES = {
  /** Rendered pages (render/page-cache.ts): a few hundred pages of ~7 kB, one per kind of visitor and campaign. */
  pages: 4 * 2 ** 20,
  /** Detected devices (device/device-detection.ts): ~1 kB each with the agent, a few thousand agents. */
  devices: 3 * 2 ** 20,
  /** Accept-Language values and what they give (device/device-detection.ts): a few hundred bytes each. */
  languages: 256 * 2 ** 10,
  /** QR code images (lib/qr-code.ts): a few kB each. */
  qrCodes: 512 * 2 ** 10,
  /** Which page a path is (lib/page-of.ts): ~100 bytes each, a thousand paths. */
  pageIdentities: 128 * 2 ** 10,
  /** Merged `Vary` values (device/device-detection.ts): a handful. */
  vary: 16 * 2 ** 10,
  /** Short links' compiled rules (rules/stored-rules.ts): ~40 bytes per character of their JSON, ~350 kB for 100 rules. */
  linkRules: 2 * 2 ** 20,
  /** Installs this isolate marked withdrawn (conversions/send-facts.ts): ~150 bytes each, a few hundred. */
  withdrawals: 64 * 2 ** 10,
} as const;

export interface BoundedCacheOptions<V> {
  /** The bound: the cache's entry of `CACHE_SHARES`. */
  maxBytes: number;
  /** The value's size in bytes, roughly; the key's (two bytes a UTF-16 unit) is added. */
  sizeOf: (value: V) => number;
}

export interface BoundedCache<V> {
  get(key: string): V | undefined;
  /** Keeps `value`, evicting the least recently used entries past the bound; a value larger than the whole bound is not kept. */
  set(key: string, value: V): void;
  readonly size: number;
  readonly bytes: number;
}

// Every cache of the isolate, for `isolateCacheBytes`.
const caches: BoundedCache<unknown>[] = [];

/** What all of the isolate's caches hold together, in bytes: never more than `ISOLATE_CACHE_BUDGET`. */
export function isolateCacheBytes(): number {
  return caches.reduce((sum, cache) => sum + cache.bytes, 0);
}

/** A new, empty cache. */
export function boundedCache<V>({ maxBytes, sizeOf }: BoundedCacheOptions<V>): BoundedCache<V> {
  // A Map iterates in insertion order: re-inserting on use keeps the least recent first. An entry
  // used again while still among the newer half is left where it is: it is not near eviction, and
  // moving it on every hit would cost the hottest entries the most.
  const entries = new Map<string, { key: string; value: V; bytes: number; used: number }>();
  let total = 0;
  let clock = 0;
  const cache: BoundedCache<V> = {
    get(key) {
      const entry = entries.get(key);
      if (!entry) return undefined;
      if (clock - entry.used > entries.size / 2) {
        // Under the key it was stored with: the one asked with may be cut from a request's header,
        // and storing it would keep that header alive (and a young string in an old map).
        entries.delete(key);
        entries.set(entry.key, entry);
        entry.used = ++clock;
      }
      return entry.value;
    },
    set(key, value) {
      const bytes = 2 * key.length + sizeOf(value);
      const previous = entries.get(key);
      if (previous) {
        total -= previous.bytes;
        entries.delete(key);
      }
      if (bytes > maxBytes) return;
      entries.set(key, { key, value, bytes, used: ++clock });
      total += bytes;
      for (const [oldest, entry] of entries) {
        if (total <= maxBytes) break;
        entries.delete(oldest);
        total -= entry.bytes;
      }
    },
    get size() {
      return entries.size;
    },
    get bytes() {
      return total;
    },
  };
  caches.push(cache as BoundedCache<unknown>);
  return cache;
}

/** The bytes a string value costs: two a UTF-16 unit. */
export const stringBytes = (value: string | null): number => 2 * (value?.length ?? 0);
