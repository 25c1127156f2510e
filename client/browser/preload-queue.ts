/**
 * A queue of preloads (docs/builds.md): each key loads once, at most `limit` loads are pending at a
 * time, the rest wait their turn. A failed load frees its slot and may be asked for again.
 */

export const MAX_PENDING_PRELOADS = 4;

export interface PreloadQueue {
  /** Queues `load` under `key` unless that key is already loaded, loading or queued. */
  add(key: string, load: () => Promise<unknown>): void;
  /** Loads in flight now. */
  readonly pending: number;
}

export function createPreloadQueue(limit = MAX_PENDING_PRELOADS): PreloadQueue {
  const known = new Set<string>();
  const waiting: [string, () => Promise<unknown>][] = [];
  let pending = 0;

  function pump(): void {
    while (pending < limit) {
      const next = waiting.shift();
      if (!next) return;
      const [key, load] = next;
      pending += 1;
      Promise.resolve()
        .then(load)
        .catch(() => known.delete(key))
        .finally(() => {
          pending -= 1;
          pump();
        });
    }
  }

  return {
    add(key, load) {
      if (known.has(key)) return;
      known.add(key);
      waiting.push([key, load]);
      pump();
    },
    get pending() {
      return pending;
    },
  };
}
