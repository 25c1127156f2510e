/**
 * The event queue (docs/sdk.md): kept on the device, at most 100 (the oldest go), sent a second after
 * the first is queued, 50 a request, in order; retried with backoff (1 s doubling to 5 min) on
 * 429/5xx/no answer, dropped on any other 4xx. One event goes in the single form, several in the batch
 * form; each keeps its id across retries, and the worker counts an id once. Each carries the time it
 * was tracked (`at`), so one sent days later counts on its own day; one older than the worker takes
 * (`MAX_AGE_MS`) is dropped before it is sent, not refused with its batch.
 */
import { postJson } from './http.ts';
import { withConsent } from './install.ts';
import { newId, type QueuedEvent, type Store } from './store.ts';
import type { Clock, Consent } from './types.ts';

export const MAX_QUEUED = 100;
export const BATCH_SIZE = 50;
export const FLUSH_DELAY_MS = 1000;
export const MAX_BACKOFF_MS = 5 * 60 * 1000;
/** The worker's rule for event names (worker/funnel/events.ts). */
export const EVENT_NAME = /^[a-z0-9][a-z0-9_.-]{0,39}$/;
/** The largest value either sign the worker takes (docs/operators.md#bounds); NaN and Infinity are past it. */
export const MAX_VALUE = 1e12;
/** The oldest `at` the worker takes (worker/attribution/contract.ts): 30 days. */
export const MAX_AGE_MS = 30 * 24 * 60 * 60 * 1000;

export interface QueueContext {
  store: Store;
  clock: Clock;
  fetcher: typeof fetch;
  endpoint: string;
  app: string;
  timeoutMs: number;
  installId(): Promise<string>;
  /** The person's consent as it is when events are sent: withdrawn since they were tracked, they are not sent on. */
  consent(): Consent | undefined;
  log(line: string): void;
}

/** The app's event queue (the file's comment): `track` queues, `flush` sends. */
export function createEventQueue(c: QueueContext) {
  let events: QueuedEvent[] = [];
  let timer: unknown = null;
  let sending: Promise<void> | null = null;
  let failures = 0;

  const cancel = (): void => {
    if (timer !== null) c.clock.clearTimeout(timer);
    timer = null;
  };
  const schedule = (ms: number): void => {
    cancel();
    timer = c.clock.setTimeout(() => {
      timer = null;
      flush().catch(() => undefined);
    }, ms);
  };
  const keep = () => c.store.write('events', events);

  const loaded = c.store.read('events').then((kept) => {
    events = Array.isArray(kept) ? [...kept, ...events].slice(-MAX_QUEUED) : events;
    if (events.length > 0) schedule(FLUSH_DELAY_MS);
  });

  async function sendAll(): Promise<void> {
    // An event kept from before `at` has none, and is sent as it is.
    events = events.filter(({ at = Infinity }) => at >= c.clock.now() - MAX_AGE_MS);
    while (events.length > 0) {
      const batch = events.slice(0, BATCH_SIZE);
      const base = withConsent({ app: c.app, installId: await c.installId() }, c.consent());
      const body = batch.length === 1 ? { ...base, ...single(batch[0]) } : { ...base, events: batch };
      c.log(`event: sending ${batch.length} (${batch.map((e) => e.name).join(', ')})`);
      const outcome = await postJson(c.fetcher, c.clock, c.endpoint, body, c.timeoutMs);
      if (outcome.kind === 'retry') {
        const delay = Math.min(1000 * 2 ** failures++, MAX_BACKOFF_MS);
        c.log(`event: ${outcome.why}; again in ${delay} ms`);
        schedule(delay);
        return;
      }
      if (outcome.kind === 'drop') c.log(`event: dropped ${batch.length}: ${outcome.why}`);
      failures = 0;
      events = events.filter((event) => !batch.includes(event));
      await keep();
    }
  }

  /** Sends everything queued now; resolves when the queue is empty or a batch must wait for a retry. */
  async function flush(): Promise<void> {
    await loaded;
    if (sending) return sending;
    cancel();
    sending = sendAll().finally(() => {
      sending = null;
      // An event queued while the last batch was on its way still goes out.
      if (events.length > 0 && timer === null) schedule(FLUSH_DELAY_MS);
    });
    return sending;
  }

  return {
    /**
     * Queues one event; false (and nothing queued) when the worker would refuse its name or value, or a
     * currency that is not three capitals with a value (docs/operators.md#revenue).
     */
    async track(name: string, value: unknown, currency?: unknown): Promise<boolean> {
      if (typeof name !== 'string' || !EVENT_NAME.test(name)) return false;
      if (value !== undefined && (typeof value !== 'number' || !(Math.abs(value) <= MAX_VALUE))) return false;
      if (currency !== undefined && (value === undefined || !/^[A-Z]{3}$/.test(currency as string))) return false;
      await loaded;
      // Keys left undefined are not in the JSON the store keeps and the request sends.
      events.push({ id: newId(), name, value, currency, at: c.clock.now() } as QueuedEvent);
      events = events.slice(-MAX_QUEUED);
      await keep();
      if (timer === null && !sending) schedule(FLUSH_DELAY_MS);
      return true;
    },
    flush,
  };
}

/** One event in the single form's order: name, value, currency, at, id. */
function single(event: QueuedEvent | undefined): Partial<QueuedEvent> {
  if (!event) return {};
  const { id, ...rest } = event;
  return { ...rest, id };
}
