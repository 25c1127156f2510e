/**
 * Faulty bindings for the fault matrix (docs/reliability.md): wrappers around the test environment's
 * real bindings that throw, hang past any budget, answer slowly, or fail a number of calls and then
 * recover. They are passed over the real environment with `fetchWorker` (helpers.ts) or to a
 * consumer: no branch in the product knows about them.
 */

/** How a binding misbehaves. */
export type Fault = 'throws' | 'hangs' | 'slow' | 'recovers';
export const FAULTS: readonly Fault[] = ['throws', 'hangs', 'slow', 'recovers'];

/** How long a hanging call takes before it fails: past every budget of the worker. */
export const HANG_MS = 3500;
/**
 * What a request may take on top of the budget it waited out, on a 2-core machine running another
 * test file beside it (a browser's, at times). Every budget plus it stays under `HANG_MS`, so a
 * request that waited on a hanging engine instead of giving up still fails its test.
 */
export const MARGIN_MS = 1000;
/** How long a slow call takes before it answers: within every budget of the worker. */
export const SLOW_MS = 300;

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

/** The fault of one binding, shared by all its calls: `recovers` fails the first `failures` calls. */
export class Injector {
  calls = 0;
  failed = 0;
  constructor(
    readonly fault: Fault,
    readonly failures = 1,
  ) {}

  /** Runs `call` as the fault says: it throws, hangs then throws, waits then answers, or fails a while. */
  async run<T>(call: () => T | Promise<T>): Promise<T> {
    this.calls += 1;
    switch (this.fault) {
      case 'throws':
        this.failed += 1;
        throw new Error('engine unavailable (injected)');
      case 'hangs':
        this.failed += 1;
        await sleep(HANG_MS);
        throw new Error('engine timed out (injected)');
      case 'slow':
        await sleep(SLOW_MS);
        return call();
      case 'recovers':
        if (this.failed < this.failures) {
          this.failed += 1;
          throw new Error('engine unavailable (injected)');
        }
        return call();
    }
  }
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

/** A queue that keeps a copy of every message it is given before sending it on. */
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
  return { queue: recording as Queue<T>, sent };
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
