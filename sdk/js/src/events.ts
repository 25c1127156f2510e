/**
 * The event queue (docs/sdk.md): kept on the device, at most 100 (the oldest go), sent a second after
 * the first is queued, 50 a request, in order; retried with backoff (1 s doubling to 5 min) on
 * 429/5xx/no answer, dropped on any other 4xx. One event goes in the single form, several in the batch
 * form; each keeps its id across retries, and the worker counts an id once.
 */
import { postJson } from './http.ts';
import { newId, type QueuedEvent, type Store } from './store.ts';
import type { Clock } from './types.ts';

export const MAX_QUEUED = 100;
export const BATCH_SIZE = 50;
export const FLUSH_DELAY_MS = 1000;
export const MAX_BACKOFF_MS = 5 * 60 * 1000;
/** The worker's rule for event names (worker/funnel/events.ts). */
export const EVENT_NAME = /^[a-z0-9][a-z0-9_.-]{0,39}$/;
/** The largest value either sign the worker takes (docs/operators.md#bounds); NaN and Infinity are past it. */
export const MAX_VALUE = 1e12;

export interface QueueContext {
  store: Store;
  clock: Clock;
  fetcher: typeof fetch;
  endpoint: string;
  app: string;
  timeoutMs: number;
  installId(): Promise<string>;
  log(line: string): void;
}

export class EventQueue {
  readonly #c: QueueContext;
  #events: QueuedEvent[] = [];
  readonly #loaded: Promise<void>;
  #timer: unknown = null;
  #sending: Promise<void> | null = null;
  #failures = 0;

  constructor(context: QueueContext) {
    this.#c = context;
    this.#loaded = context.store.read('events').then((events) => {
      this.#events = Array.isArray(events) ? [...events, ...this.#events].slice(-MAX_QUEUED) : this.#events;
      if (this.#events.length > 0) this.#schedule(FLUSH_DELAY_MS);
    });
  }

  /**
   * Queues one event; false (and nothing queued) when the worker would refuse its name or value, or a
   * currency that is not three capitals with a value (docs/operators.md#revenue).
   */
  async track(name: string, value: unknown, currency?: unknown): Promise<boolean> {
    if (typeof name !== 'string' || !EVENT_NAME.test(name)) return false;
    if (value !== undefined && (typeof value !== 'number' || !(Math.abs(value) <= MAX_VALUE))) return false;
    if (currency !== undefined && (value === undefined || !/^[A-Z]{3}$/.test(currency as string))) return false;
    await this.#loaded;
    // Keys left undefined are not in the JSON the store keeps and the request sends.
    this.#events.push({ id: newId(), name, value, currency } as QueuedEvent);
    this.#events = this.#events.slice(-MAX_QUEUED);
    await this.#c.store.write('events', this.#events);
    if (this.#timer === null && !this.#sending) this.#schedule(FLUSH_DELAY_MS);
    return true;
  }

  /** Sends everything queued now; resolves when the queue is empty or a batch must wait for a retry. */
  async flush(): Promise<void> {
    await this.#loaded;
    if (this.#sending) return this.#sending;
    this.#cancel();
    this.#sending = this.#sendAll().finally(() => {
      this.#sending = null;
      // An event queued while the last batch was on its way still goes out.
      if (this.#events.length > 0 && this.#timer === null) this.#schedule(FLUSH_DELAY_MS);
    });
    return this.#sending;
  }

  async #sendAll(): Promise<void> {
    while (this.#events.length > 0) {
      const batch = this.#events.slice(0, BATCH_SIZE);
      const installId = await this.#c.installId();
      const base = { app: this.#c.app, installId };
      const body = batch.length === 1 ? { ...base, ...single(batch[0]) } : { ...base, events: batch };
      this.#c.log(`event: sending ${batch.length} (${batch.map((e) => e.name).join(', ')})`);
      const outcome = await postJson(this.#c.fetcher, this.#c.clock, this.#c.endpoint, body, this.#c.timeoutMs);
      if (outcome.kind === 'retry') {
        this.#failures++;
        const delay = Math.min(1000 * 2 ** (this.#failures - 1), MAX_BACKOFF_MS);
        this.#c.log(`event: ${outcome.why}; again in ${delay} ms`);
        this.#schedule(delay);
        return;
      }
      if (outcome.kind === 'drop') this.#c.log(`event: dropped ${batch.length}: ${outcome.why}`);
      this.#failures = 0;
      const sent = new Set(batch.map((event) => event.id));
      this.#events = this.#events.filter((event) => !sent.has(event.id));
      await this.#c.store.write('events', this.#events);
    }
  }

  #schedule(ms: number): void {
    this.#cancel();
    this.#timer = this.#c.clock.setTimeout(() => {
      this.#timer = null;
      this.flush().catch(() => undefined);
    }, ms);
  }

  #cancel(): void {
    if (this.#timer !== null) this.#c.clock.clearTimeout(this.#timer);
    this.#timer = null;
  }
}

/** One event in the single form's order: name, value, currency, id. */
function single(event: QueuedEvent | undefined): Partial<QueuedEvent> {
  if (!event) return {};
  const { id, ...rest } = event;
  return { ...rest, id };
}
