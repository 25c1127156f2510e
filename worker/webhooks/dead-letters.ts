/**
 * The dead-letter queue's consumer (docs/webhooks.md#retries): a delivery the queue gave up on
 * (every attempt failed) is marked `dead`, so the endpoint's dead-letter count is exact and "resend"
 * finds it. Marking is idempotent: a dead letter delivered twice is counted once. An event message
 * whose recording kept failing is recorded once more here, and logged if even that fails. A dead letter
 * of an erased subject (erased.ts) is dropped.
 */
import * as v from 'valibot';
import { withoutErased } from './erased.ts';
import { recordEvents } from './fan-out.ts';
import { type EventMessage, WebhookMessageSchema } from './messages.ts';

const MARK_DEAD =
  "UPDATE webhook_deliveries SET status = 'dead', updated_at = ?2 " +
  "WHERE status != 'delivered' AND (endpoint_id, event_id) IN " +
  "(SELECT json_extract(value, '$[0]'), json_extract(value, '$[1]') FROM json_each(?1))";

/** The dead-letter queue's handler: marks its deliveries dead and acknowledges the batch. */
export async function consumeDeadLetters(batch: MessageBatch<unknown>, env: Env, now = Date.now()): Promise<void> {
  const dead: [string, string][] = [];
  const events: EventMessage[] = [];
  const parsed = batch.messages.flatMap((message) => {
    const read = v.safeParse(WebhookMessageSchema, message.body);
    return read.success ? [read.output] : [];
  });
  try {
    // A dead letter of a subject erased since (erased.ts) is dropped: neither recorded nor marked.
    for (const message of (await withoutErased(env.FUNNEL_DB, parsed, now)).kept) {
      if (message.k === 'delivery') dead.push([message.endpoint, message.id]);
      else events.push(message);
    }
    if (dead.length > 0) await env.FUNNEL_DB.prepare(MARK_DEAD).bind(JSON.stringify(dead), now).run();
    // Recorded for the export; their deliveries, if any, wait for "resend".
    if (events.length > 0) await recordEvents(env.FUNNEL_DB, events, now);
    batch.ackAll();
  } catch (error) {
    console.error('Dead webhook letters not recorded', error instanceof Error ? error.message : String(error));
    batch.retryAll({ delaySeconds: 60 });
  }
}
