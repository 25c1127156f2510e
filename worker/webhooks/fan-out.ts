/**
 * An event's fan-out (docs/webhooks.md#delivery): the consumer records a batch of events in D1 (the
 * daily export's source, and what "resend" sends again) and one pending delivery per event and
 * endpoint that subscribes to its type, then queues those deliveries. Every statement is idempotent,
 * so an event message the queue delivers twice records nothing twice and sends the same
 * `webhook-id`s again, which a receiver de-duplicates.
 */

import { utcDay } from '../../shared/time-zone.ts';
import { kindOf } from '../../shared/webhooks.ts';
import { appOfWebhook, type DeliveryMessage, type EventMessage } from './messages.ts';

const at = (index: number): string => `json_extract(value, '$[${index}]')`;

const RECORD_EVENTS =
  'INSERT OR IGNORE INTO webhook_events (id, kind, type, day, at, body, app) ' +
  `SELECT ${at(0)}, ${at(1)}, ${at(2)}, ${at(3)}, ${at(4)}, ${at(5)}, ${at(6)} FROM json_each(?1)`;
const RECORD_DELIVERIES =
  'INSERT OR IGNORE INTO webhook_deliveries (endpoint_id, event_id, type, at, status, attempts, updated_at, app) ' +
  `SELECT ${at(0)}, ${at(1)}, ${at(2)}, ${at(3)}, 'pending', 0, ?2, ${at(4)} FROM json_each(?1)`;

/** Records `events` and their deliveries; answers the deliveries to queue. Throws when D1 does. */
export async function recordEvents(
  db: D1Database,
  events: readonly EventMessage[],
  now = Date.now(),
): Promise<DeliveryMessage[]> {
  if (events.length === 0) return [];
  const endpoints = await db
    .prepare('SELECT id, app, events FROM webhook_endpoints WHERE enabled = 1')
    .all<{ id: string; app: string; events: string }>();
  const deliveries: DeliveryMessage[] = [];
  for (const endpoint of endpoints.results) {
    const wanted = new Set<unknown>(JSON.parse(endpoint.events) as unknown[]);
    // An endpoint hears only its own app's events (docs/routes.md#apps).
    for (const event of events)
      if (wanted.has(event.type) && appOfWebhook(event) === endpoint.app)
        deliveries.push({ ...event, k: 'delivery', endpoint: endpoint.id, tenant: endpoint.app });
  }
  const rows = events.map((event) => [
    event.id,
    kindOf(event.type),
    event.type,
    utcDay(event.at),
    event.at,
    event.body,
    appOfWebhook(event),
  ]);
  const statements = [db.prepare(RECORD_EVENTS).bind(JSON.stringify(rows))];
  if (deliveries.length > 0) {
    const pending = deliveries.map((delivery) => [
      delivery.endpoint,
      delivery.id,
      delivery.type,
      delivery.at,
      appOfWebhook(delivery),
    ]);
    statements.push(db.prepare(RECORD_DELIVERIES).bind(JSON.stringify(pending), now));
  }
  await db.batch(statements);
  return deliveries;
}

/** A queue batch holds at most 100 messages and 256 KB. */
const MAX_SEND = 100;
const MAX_SEND_BYTES = 200_000;

/** Queues `deliveries` in as few `sendBatch` calls as the queue's limits allow. */
export async function queueDeliveries(queue: Queue, deliveries: readonly DeliveryMessage[]): Promise<void> {
  let chunk: MessageSendRequest[] = [];
  let bytes = 0;
  for (const delivery of deliveries) {
    const size = delivery.body.length + 200;
    if (chunk.length === MAX_SEND || bytes + size > MAX_SEND_BYTES) {
      await queue.sendBatch(chunk);
      chunk = [];
      bytes = 0;
    }
    chunk.push({ body: delivery });
    bytes += size;
  }
  if (chunk.length > 0) await queue.sendBatch(chunk);
}
