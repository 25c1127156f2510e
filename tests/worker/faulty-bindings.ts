/**
 * Faulty bindings for the fault matrix (docs/reliability.md): wrappers around the test environment's
 * real bindings that throw, hang past any budget, answer slowly, or fail a number of calls and then
 * recover. They are passed over the real environment with `fetchWorker` (helpers.ts) or to a
 * consumer: no branch in the product knows about them.
 *
 * Time is the test's: a test fakes the isolate's timers and clock (`useFakeClock`), so a hang and a
 * slow answer wait on the fake clock, and so do the worker's budgets, pauses and retries
 * (`withinBudget` races a `setTimeout`). `drive` moves that clock from timer to timer while no real
 * engine call is under way: a request that waits out its budgets costs no real second, and a
 * request that waited on a hanging engine shows it in the fake time it took.
 */
import { vi } from 'vitest';

/** How a binding misbehaves. */
export type Fault = 'throws' | 'hangs' | 'slow' | 'recovers';
export const FAULTS: readonly Fault[] = ['throws', 'hangs', 'slow', 'recovers'];

/**
 * How long a hanging call takes before it fails (on the fake clock where a test fakes it): past every
 * budget of a request, so a request that waited on a hanging engine instead of giving up shows it.
 * The operator's calls, which have no budget, answer once it fails, as after D1's own timeout.
 */
export const HANG_MS = 3500;
/** How long a slow call takes before it answers: within every budget of the worker. */
export const SLOW_MS = 300;

// The isolate's own timer, taken before any test fakes it: `drive` yields to real I/O with it.
const realTimeout = globalThis.setTimeout.bind(globalThis);
const realTurn = () => new Promise<void>((resolve) => realTimeout(resolve, 1));
// Read when called, so under fake timers the pause is on the fake clock.
const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

/** Real engine calls under way, across every injector: the fake clock stands still while any is. */
let inFlight = 0;

/** `call`, counted as under way until it settles: the fake clock waits for it (an engine, a body being read). */
export async function underWay<T>(call: () => T | Promise<T>): Promise<T> {
  inFlight += 1;
  try {
    return await call();
  } finally {
    inFlight -= 1;
  }
}

/** The fault of one binding, shared by all its calls: `recovers` fails the first `failures` calls; `none` only counts. */
export class Injector {
  calls = 0;
  failed = 0;
  constructor(
    readonly fault: Fault | 'none',
    readonly failures = 1,
  ) {}

  /** Runs `call` as the fault says: it throws, hangs then throws, waits then answers, or fails a while. */
  async run<T>(call: () => T | Promise<T>): Promise<T> {
    this.calls += 1;
    switch (this.fault) {
      case 'none':
        return underWay(call);
      case 'throws':
        this.failed += 1;
        throw new Error('engine unavailable (injected)');
      case 'hangs':
        this.failed += 1;
        await sleep(HANG_MS);
        throw new Error('engine timed out (injected)');
      case 'slow':
        await sleep(SLOW_MS);
        return underWay(call);
      case 'recovers':
        if (this.failed < this.failures) {
          this.failed += 1;
          throw new Error('engine unavailable (injected)');
        }
        return underWay(call);
    }
  }
}

/**
 * Fakes the isolate's timers and clock for one test; `vi.useRealTimers()` gives them back (and
 * `vi.restoreAllMocks()` the location cache's reads, counted as under way like an engine's).
 */
export function useFakeClock(): void {
  vi.useFakeTimers({ toFake: ['setTimeout', 'clearTimeout', 'Date'] });
  // The tests' types know the browser's CacheStorage; workerd's has the location's `default` cache.
  const cache = (caches as unknown as { default: Cache }).default;
  const match = cache.match.bind(cache);
  vi.spyOn(cache, 'match').mockImplementation((request: RequestInfo | URL, options?: CacheQueryOptions) =>
    underWay(() => match(request, options)),
  );
}

/**
 * Awaits `work` under the fake clock: while it is pending, real I/O gets its turns and timers already
 * due fire; once no engine call is under way the clock moves to the next timer (a budget, a pause, a
 * hang). The fake milliseconds it took are those the worker would have waited.
 */
export async function drive<T>(work: Promise<T>): Promise<{ value: T; ms: number }> {
  const started = Date.now();
  let done = false;
  const settled = work.finally(() => {
    done = true;
  });
  settled.catch(() => {});
  let quiet = 0;
  let busy = 0;
  while (!done) {
    await realTurn();
    if (done) break;
    if (vi.getTimerCount() > 0) await vi.advanceTimersByTimeAsync(0);
    if (done) break;
    // A call under way may wait on the clock itself (inside a Durable Object): after 250 real turns it moves.
    if (inFlight > 0 && ++busy < 250) {
      quiet = 0;
      continue;
    }
    busy = 0;
    if (++quiet < 3 || vi.getTimerCount() === 0) continue;
    quiet = 0;
    await vi.advanceTimersToNextTimerAsync();
  }
  const ms = Date.now() - started;
  return { value: await settled, ms };
}

/** `target` with each method named in `methods` run through `injector`; the others as they are. */
function wrap<T extends object>(target: T, injector: Injector, methods: readonly string[]): T {
  return new Proxy(target, {
    get(object, property) {
      const value: unknown = Reflect.get(object, property);
      if (typeof value !== 'function') return value;
      const method = value as (...args: unknown[]) => unknown;
      if (typeof property === 'string' && methods.includes(property))
        return (...args: unknown[]) => injector.run(() => Reflect.apply(method, object, args));
      return method.bind(object);
    },
  });
}

/** A Durable Object namespace whose objects' every RPC call is faulty (`idFromName`, `get` are not). */
export function faultyNamespace<T extends Rpc.DurableObjectBranded | undefined>(
  namespace: DurableObjectNamespace<T>,
  injector: Injector,
): DurableObjectNamespace<T> {
  return new Proxy(namespace, {
    get(object, property) {
      const value: unknown = Reflect.get(object, property);
      if (typeof value !== 'function') return value;
      const method = value as (...args: unknown[]) => unknown;
      if (property !== 'get') return method.bind(object);
      return (...args: unknown[]) => {
        const stub = Reflect.apply(method, object, args) as object;
        return new Proxy(stub, {
          get(real, name) {
            const rpc: unknown = Reflect.get(real, name);
            if (typeof rpc !== 'function' || typeof name !== 'string' || name === 'fetch') return rpc;
            const call = rpc as (...a: unknown[]) => unknown;
            // An RPC method is itself a stub: `call.apply` would be a remote method named `apply`.
            return (...a: unknown[]) => injector.run(() => Reflect.apply(call, real, a));
          },
        });
      };
    },
  });
}

/** A D1 database whose every query (`run`, `all`, `first`, `raw`, `batch`, `exec`) is faulty. */
export function faultyD1(db: D1Database, injector: Injector): D1Database {
  const statement = (real: D1PreparedStatement): D1PreparedStatement =>
    new Proxy(wrap(real, injector, ['run', 'all', 'first', 'raw']), {
      get(object, property) {
        if (property === 'bind') return (...values: unknown[]) => statement(real.bind(...values));
        return Reflect.get(object, property);
      },
    });
  return new Proxy(wrap(db, injector, ['batch', 'exec']), {
    get(object, property) {
      if (property === 'prepare') return (query: string) => statement(db.prepare(query));
      return Reflect.get(object, property);
    },
  });
}

/** A queue whose `send` and `sendBatch` are faulty. */
export const faultyQueue = <T>(queue: Queue<T>, injector: Injector): Queue<T> =>
  wrap(queue, injector, ['send', 'sendBatch']);

/** A bucket whose every operation is faulty. */
export const faultyR2 = (bucket: R2Bucket, injector: Injector): R2Bucket =>
  wrap(bucket, injector, ['get', 'head', 'put', 'list', 'delete']);

/** A Rate Limiting binding whose `limit` is faulty. */
export const faultyLimiter = (limiter: RateLimit, injector: Injector): RateLimit => wrap(limiter, injector, ['limit']);

/** A KV namespace whose reads and writes are faulty. */
export const faultyKV = (kv: KVNamespace, injector: Injector): KVNamespace =>
  wrap(kv, injector, ['get', 'getWithMetadata', 'put', 'list', 'delete']);

/**
 * Every engine of `real` through an injector that only counts its calls under way, so `drive` moves
 * the fake clock only while none is: a budget never fires early on a real engine's answer.
 */
export function counting(real: Env): Partial<Env> {
  const none = () => new Injector('none');
  return {
    KV: faultyKV(real.KV, none()),
    CLICK_BUCKETS: faultyNamespace(real.CLICK_BUCKETS, none()),
    ATTRIBUTION_LEDGER: faultyNamespace(real.ATTRIBUTION_LEDGER, none()),
    FUNNEL_DB: faultyD1(real.FUNNEL_DB, none()),
    FUNNEL_QUEUE: faultyQueue(real.FUNNEL_QUEUE, none()),
    WEBHOOK_QUEUE: faultyQueue(real.WEBHOOK_QUEUE, none()),
    APK_PARENTS: faultyR2(real.APK_PARENTS, none()),
    EXPORTS: faultyR2(real.EXPORTS, none()),
    CLIENT_LIMITER: faultyLimiter(real.CLIENT_LIMITER, none()),
    NETWORK_LIMITER: faultyLimiter(real.NETWORK_LIMITER, none()),
    NETWORK_INSTALL_WATCH: faultyLimiter(real.NETWORK_INSTALL_WATCH, none()),
  };
}

/** A queue that keeps a copy of every message it is given before sending it on (its sends underWay as under way). */
export function recordingQueue<T>(queue: Queue<T>): { queue: Queue<T>; sent: T[] } {
  const sent: T[] = [];
  const recording = {
    send: (body: T, options?: QueueSendOptions) => {
      sent.push(body);
      return queue.send(body, options);
    },
    sendBatch: (messages: Iterable<MessageSendRequest<T>>, options?: QueueSendBatchOptions) => {
      const list = [...messages];
      for (const message of list) sent.push(message.body);
      return queue.sendBatch(list, options);
    },
  };
  return { queue: faultyQueue(recording as Queue<T>, new Injector('none')), sent };
}

/**
 * A bucket whose object bodies break after `bytes` bytes (an R2 read cut mid-stream), the first
 * `cuts` times; `head` and later reads are the real bucket's.
 */
export function cutR2(bucket: R2Bucket, bytes: number, cuts = 1): R2Bucket {
  let left = cuts;
  return new Proxy(bucket, {
    get(object, property) {
      if (property !== 'get') {
        const value: unknown = Reflect.get(object, property);
        return typeof value === 'function' ? (value as (...a: unknown[]) => unknown).bind(object) : value;
      }
      return async (key: string, options?: R2GetOptions) => {
        const found = await bucket.get(key, options);
        if (!found || !('body' in found) || left <= 0) return found;
        left -= 1;
        let passed = 0;
        const reader = found.body.getReader();
        const body = new ReadableStream<Uint8Array>({
          async pull(controller) {
            if (passed >= bytes) {
              controller.error(new Error('R2 read cut mid-stream (injected)'));
              await reader.cancel().catch(() => {});
              return;
            }
            const { done, value } = await reader.read();
            if (done) return controller.close();
            const part = value.subarray(0, bytes - passed);
            passed += part.length;
            controller.enqueue(part);
          },
        });
        // The product reads only the body of a piece (worker/apk/routes.ts).
        return { ...found, body };
      };
    },
  });
}
