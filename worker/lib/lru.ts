/**
 * A small least-recently-used map, bounded by entry count and by total size, for per-isolate
 * memoisation (detection results, rendered pages). Per-isolate state only: nothing per visitor.
 */
export interface LruOptions<V> {
  maxEntries: number;
  /** Upper bound of the summed `sizeOf` of keys and values. */
  maxSize?: number;
  sizeOf?: (key: string, value: V) => number;
}

export interface Lru<V> {
  get(key: string): V | undefined;
  set(key: string, value: V): void;
  readonly size: number;
}

export function createLru<V>({
  maxEntries,
  maxSize = Number.POSITIVE_INFINITY,
  sizeOf = () => 1,
}: LruOptions<V>): Lru<V> {
  // A Map iterates in insertion order: re-inserting on use keeps the least recent first.
  const entries = new Map<string, { value: V; size: number }>();
  let total = 0;
  return {
    get(key) {
      const entry = entries.get(key);
      if (!entry) return undefined;
      entries.delete(key);
      entries.set(key, entry);
      return entry.value;
    },
    set(key, value) {
      const size = sizeOf(key, value);
      if (size > maxSize) return;
      const previous = entries.get(key);
      if (previous) {
        total -= previous.size;
        entries.delete(key);
      }
      entries.set(key, { value, size });
      total += size;
      for (const [oldest, entry] of entries) {
        if (entries.size <= maxEntries && total <= maxSize) break;
        entries.delete(oldest);
        total -= entry.size;
      }
    },
    get size() {
      return entries.size;
    },
  };
}
