/**
 * The conversion queue's consumer (docs/conversions.md#delivery): event messages are recorded and
 * fanned out (fan-out.ts); delivery messages are sent a few at a time (deliver.ts), each acknowledged
 * once settled or retried on the webhooks' schedule (worker/webhooks/retry-policy.ts); after the last
 * attempt the queue moves it to the dead-letter queue, whose consumer marks it `dead`. A message of a
 * subject erased since it was queued (the webhooks' `webhook_erased`, worker/webhooks/erased.ts: its
 * event id or its install's hash) is dropped, unsent and unrecorded.
 */
import * as v from 'valibot';
import { erasedAmong } from '../webhooks/erased.ts';
import { type DeliverOptions, deliverConversion } from './deliver.ts';
import { destinationsById } from './destinations.ts';
import { queueConversionDeliveries, recordConversions } from './fan-out.ts';
import { type ConversionDeliveryMessage, type ConversionEventMessage, ConversionMessageSchema } from './messages.ts';

/** Attempts made at once: a worker invocation keeps at most 6 connections open. */
const CONCURRENCY = 6;
/** Seconds before a batch of events whose recording failed is tried again. */
const EVENT_RETRY_SECONDS = 10;
/** How many times an event of an install not known yet is looked at before it is dropped. */
const UNKNOWN_INSTALL_LOOKS = 3;

const report = (what: string, error: unknown) =>
  console.error(what, error instanceof Error ? error.message : String(error));

async function fanOut(env: Env, handles: Message[], events: ConversionEventMessage[], now: number): Promise<void> {
  try {
    const { deliveries, unknown } = await recordConversions(env.FUNNEL_DB, events, now);
    await queueConversionDeliveries(env.CONVERSION_QUEUE, deliveries);
    const waiting = new Set(unknown);
    events.forEach((event, at) => {
      const handle = handles[at];
      if (!handle) return;
      // An install not known yet may still arrive; after a few looks it is one consent did not allow.
      if (waiting.has(event) && handle.attempts < UNKNOWN_INSTALL_LOOKS)
        handle.retry({ delaySeconds: EVENT_RETRY_SECONDS });
      else handle.ack();
    });
  } catch (error) {
    report('Conversion events not recorded, retrying', error);
    for (const handle of handles) handle.retry({ delaySeconds: EVENT_RETRY_SECONDS });
  }
}

async function deliverAll(
  env: Env,
  work: { handle: Message; delivery: ConversionDeliveryMessage }[],
  options: DeliverOptions,
): Promise<void> {
  const destinations = await destinationsById(env.FUNNEL_DB, [
    ...new Set(work.map((item) => item.delivery.destination)),
  ]);
  let next = 0;
  const lane = async (): Promise<void> => {
    while (next < work.length) {
      const item = work[next];
      next += 1;
      if (!item) continue;
      const { handle, delivery } = item;
      try {
        const after = await deliverConversion(
          env,
          delivery,
          destinations.get(delivery.destination),
          handle.attempts,
          options,
        );
        if (after.ack) handle.ack();
        else handle.retry({ delaySeconds: after.delaySeconds });
      } catch (error) {
        report('Conversion delivery not settled, retrying', error);
        handle.retry({ delaySeconds: EVENT_RETRY_SECONDS });
      }
    }
  };
  await Promise.all(Array.from({ length: Math.min(CONCURRENCY, work.length) }, lane));
}

/** The queue handler of the conversion queue. */
export async function consumeConversionBatch(
  batch: MessageBatch<unknown>,
  env: Env,
  options: DeliverOptions = {},
): Promise<void> {
  const parsedMessages: { handle: Message; message: ConversionEventMessage | ConversionDeliveryMessage }[] = [];
  for (const handle of batch.messages) {
    const parsed = v.safeParse(ConversionMessageSchema, handle.body);
    if (parsed.success) parsedMessages.push({ handle, message: parsed.output });
    else {
      // A malformed message never becomes valid: retrying it would only block the good ones.
      console.error('Conversion message dropped', v.summarize(parsed.issues));
      handle.ack();
    }
  }
  const now = (options.now ?? Date.now)();
  let erased: boolean[];
  try {
    // The keyed hashes an erasure keeps the digests of: the event's id (an install's key) and the install's hash.
    erased = await erasedAmong(
      env.FUNNEL_DB,
      parsedMessages.map(({ message }) => ({ app: message.tenant, hashes: [message.event.id, message.event.install] })),
      now,
    );
  } catch (error) {
    report('Conversion batch not checked for erased subjects, retrying', error);
    for (const { handle } of parsedMessages) handle.retry({ delaySeconds: EVENT_RETRY_SECONDS });
    return;
  }
  const events: ConversionEventMessage[] = [];
  const eventHandles: Message[] = [];
  const deliveries: { handle: Message; delivery: ConversionDeliveryMessage }[] = [];
  parsedMessages.forEach(({ handle, message }, at) => {
    if (erased[at]) handle.ack();
    else if (message.k === 'event') {
      events.push(message);
      eventHandles.push(handle);
    } else deliveries.push({ handle, delivery: message });
  });
  await Promise.all([
    events.length > 0 ? fanOut(env, eventHandles, events, now) : undefined,
    deliveries.length > 0 ? deliverAll(env, deliveries, options) : undefined,
  ]);
}

const MARK_DEAD =
  "UPDATE conversion_deliveries SET status = 'dead', updated_at = ?2 WHERE status IN ('pending', 'sending') AND " +
  "(destination_id, event_id) IN (SELECT json_extract(value, '$[0]'), json_extract(value, '$[1]') FROM json_each(?1))";

/** The dead-letter queue's handler: a delivery the queue gave up on is `dead`; marking is idempotent. */
export async function consumeConversionDeadLetters(
  batch: MessageBatch<unknown>,
  env: Env,
  now = Date.now(),
): Promise<void> {
  const dead: [string, string][] = [];
  for (const handle of batch.messages) {
    const read = v.safeParse(ConversionMessageSchema, handle.body);
    if (read.success && read.output.k === 'delivery') dead.push([read.output.destination, read.output.event.id]);
  }
  try {
    if (dead.length > 0) await env.FUNNEL_DB.prepare(MARK_DEAD).bind(JSON.stringify(dead), now).run();
    batch.ackAll();
  } catch (error) {
    report('Dead conversion letters not recorded', error);
    batch.retryAll({ delaySeconds: 60 });
  }
}
