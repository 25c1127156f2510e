/**
 * One KV document per isolate, read the way the page can afford (docs/config.md): kept for `ttlMs`
 * (a failed read only briefly, so a store that recovers is used again soon), and one read shared by
 * the requests that arrive while it is under way. The read belongs to the request that started it
 * and the runtime may cancel it with that request, so a joiner never waits past the read's own
 * budget (it takes `late()` instead), and a read older than its budget, or one a joiner already
 * waited out, is replaced, not joined (the clock alone cannot tell: it stands still while a request
 * waits on nothing but timers).
 * The configuration and the uploaded APK parents are both read through this.
 */
/** What one read gave: the value, and whether it stands for a failure (kept only briefly). */
export interface SharedReadResult<T> {
  value: T;
  failed: boolean;
}

export interface SharedReadOptions<T> {
  /** Reads the document from `kv`; never rejects. */
  read(kv: Pick<KVNamespace, 'get'>): Promise<SharedReadResult<T>>;
  /** What a joiner gets when the shared read has not settled within its budget. */
  late(): T;
  /** The read's budget. */
  timeoutMs: number;
  /** How long a failed read is kept at most. */
  failedTtlMs: number;
  now?: () => number;
}

/** The loader: `ttlMs` 0 reads KV on every call (but shares a read under way). */
export type SharedRead<T> = (kv: Pick<KVNamespace, 'get'>, ttlMs: number) => Promise<T>;

/** How often a joiner looks whether the shared read has settled. */
const JOIN_STEP_MS = 2;

/**
 * Waits for `read` to settle by looking at it every `JOIN_STEP_MS`, never by awaiting its promise:
 * the promise belongs to the request that started the read, and workerd refuses to settle one
 * request's promise in another's ("Cannot perform I/O on behalf of a different request"). The
 * steps are counted, not timed: the clock stands still while a request waits on timers alone.
 */
async function joinRead<T>(read: { settled: { value: T } | null }, budgetMs: number): Promise<{ value: T } | null> {
  for (let waited = 0; read.settled === null && waited < budgetMs; waited += JOIN_STEP_MS) {
    await new Promise((resolve) => setTimeout(resolve, JOIN_STEP_MS));
  }
  return read.settled;
}

export function sharedRead<T>({
  read,
  late,
  timeoutMs,
  failedTtlMs,
  now = Date.now,
}: SharedReadOptions<T>): SharedRead<T> {
  let cached: { until: number; value: T } | null = null;
  let inflight: { kv: Pick<KVNamespace, 'get'>; startedAt: number; settled: { value: T } | null } | null = null;
  return async function load(kv, ttlMs) {
    const start = now();
    if (cached && cached.until > start) return cached.value;
    const joined = inflight;
    if (joined?.kv === kv && start - joined.startedAt < timeoutMs) {
      const settled = await joinRead(joined, timeoutMs - (start - joined.startedAt) + 25);
      if (settled) return settled.value;
      if (inflight === joined) inflight = null;
      return late();
    }
    cached = null;
    const current: { kv: Pick<KVNamespace, 'get'>; startedAt: number; settled: { value: T } | null } = {
      kv,
      startedAt: start,
      settled: null,
    };
    inflight = current;
    try {
      const result = await read(kv);
      const ttl = result.failed ? Math.min(ttlMs, failedTtlMs) : ttlMs;
      if (ttl > 0) cached = { until: start + ttl, value: result.value };
      current.settled = { value: result.value };
      return result.value;
    } finally {
      if (inflight === current) inflight = null;
    }
  };
}
