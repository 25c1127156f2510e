/**
 * Sends events to the funnel's queue (docs/operators.md) after the response: everything runs under
 * `ctx.waitUntil`, so it never delays a page, and a failure is logged, never thrown, so a broken
 * queue never breaks one either. Counting is done by the queue's consumer (consume-batch.ts).
 *
 * An isolate gathers its events for `FLUSH_MS` (or up to `MAX_BATCH` of them) and sends them with
 * one `sendBatch`: a queue send per page view cost more CPU than the rest of the counting together
 * (docs/benchmarks.md). The request that opens a batch keeps it alive until it is sent; only plain
 * data crosses from one request to another, never a promise or an I/O object. A visitor's address and
 * agent wait in memory until the batch is sent (at most `FLUSH_MS`), then only their hash leaves.
 */

import { dayIn, utcDay } from '../../shared/time-zone.ts';
import { sendOrCountLoss } from '../reliability/queue-send.ts';
import { settingsOf } from '../settings.ts';
import type { EventInput, FunnelMessage } from './events.ts';
import { visitorHash } from './visitor-key.ts';

const zoneDay = (zone: string, now: number): string => {
  try {
    return dayIn(zone, now);
  } catch {
    return utcDay(now);
  }
};

/** The queue message of `input`, happening at `now` (ms); the visitor hashed with the day's key. */
export async function messageOf(env: Env, input: EventInput, now = Date.now()): Promise<FunnelMessage> {
  // The operator's day (docs/operators.md#days-and-time-zones); a zone that became unknown counts in UTC.
  const day = input.zone ? zoneDay(input.zone, now) : utcDay(now);
  const salt = input.visitor ? settingsOf(env).funnelSalt : undefined;
  const id = input.id ?? crypto.randomUUID();
  const message: FunnelMessage = { v: 1, id, day, event: input.event, dims: input.dims };
  const on =
    input.happened === undefined ? day : input.zone ? zoneDay(input.zone, input.happened) : utcDay(input.happened);
  if (on < day) message.on = on;
  if (input.tenant) message.tenant = input.tenant;
  if (input.app) message.app = input.app;
  if (input.install) message.install = input.install;
  if (salt && input.visitor) message.visitor = await visitorHash(salt, day, input.visitor);
  return message;
}

/** How long an isolate gathers events before sending them. */
export const FLUSH_MS = 100;
/** The most events one send carries (a queue batch holds at most 100 messages). */
export const MAX_BATCH = 50;

type Waiter = Pick<ExecutionContext, 'waitUntil'>;

/** An event as gathered: its input and when it happened; its message is made when the batch is sent. */
interface Gathered {
  input: EventInput;
  at: number;
}

// The batch being gathered, per environment object (one per isolate in production, one per test env).
const open = new WeakMap<object, Gathered[]>();

const report = (error: unknown) =>
  console.error('Funnel event not sent', error instanceof Error ? error.message : String(error));

async function sendLater(env: Env, batch: Gathered[]): Promise<void> {
  await new Promise((resolve) => setTimeout(resolve, FLUSH_MS));
  if (open.get(env) === batch) open.delete(env);
  if (batch.length === 0) return;
  try {
    // One event whose message cannot be made (its visitor hash failed) is left out, not the batch.
    const made = await Promise.all(
      batch.map(({ input, at }) =>
        messageOf(env, input, at).catch((error: unknown) => {
          report(error);
          return null;
        }),
      ),
    );
    const messages = made.filter((message) => message !== null);
    // Structured clone (the queue's default): serialized natively, where 'json' cost a JSON.stringify per message.
    const sent = messages.map((body) => ({ body }));
    // A retry carries the same ids: the consumer counts each event once even if both sends landed.
    await sendOrCountLoss(env, {
      send: () => env.FUNNEL_QUEUE.sendBatch(sent),
      loss: 'funnel-events',
      count: messages.length,
      report,
    });
  } catch (error) {
    report(error);
  }
}

/**
 * Counts `input` in the funnel, after the response; never throws, never waits. The event joins the
 * isolate's open batch as plain data; the request that opens a batch keeps it alive until it is sent,
 * and the batch's messages (ids, visitor hashes) are made then, together, not one promise per event.
 */
export function recordEvent(env: Env, ctx: Waiter, input: EventInput): void {
  const gathered = { input, at: input.at ?? Date.now() };
  const batch = open.get(env);
  if (batch && batch.length < MAX_BATCH) {
    batch.push(gathered);
    if (batch.length === MAX_BATCH) open.delete(env);
    return;
  }
  const fresh = [gathered];
  const sending = sendLater(env, fresh);
  try {
    ctx.waitUntil(sending);
    open.set(env, fresh);
  } catch (error) {
    // Only a context without waitUntil (a unit test's app.request) gets here: the event is dropped.
    fresh.length = 0;
    report(error);
  }
}
