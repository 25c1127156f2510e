/**
 * The fan-out of a conversion event (docs/conversions.md#delivery): an install allowed by its
 * consent is remembered (`conversion_installs`), an open or an app event is sent only for such an
 * install, and each enabled destination of the app that sends the event gets one pending delivery
 * (`conversion_deliveries`, one row per destination and event) and one delivery message. All of it is
 * idempotent: a redelivered event records nothing twice, and queues only what is still pending.
 */

import { enabledDestinations } from './destinations.ts';
import type { ConversionDeliveryMessage, ConversionEventMessage } from './messages.ts';
import { platformNameOf } from './platforms/index.ts';

const ALLOW_INSTALL = 'INSERT OR IGNORE INTO conversion_installs (app, install, platform, at) VALUES (?, ?, ?, ?)';
const ALLOWED =
  'SELECT value AS install FROM json_each(?2) WHERE value IN (SELECT install FROM conversion_installs WHERE app = ?1)';
const RECORD =
  'INSERT OR IGNORE INTO conversion_deliveries (destination_id, event_id, name, at, status, updated_at) VALUES (?, ?, ?, ?, ?, ?)';
const PENDING =
  "SELECT destination_id AS d, event_id AS e FROM conversion_deliveries WHERE status = 'pending' AND (destination_id, event_id) IN " +
  "(SELECT json_extract(value, '$[0]'), json_extract(value, '$[1]') FROM json_each(?))";

/**
 * Forgets that app `app`'s install `install` (its webhooks' hash) was allowed to be sent: its consent
 * was withdrawn (send-facts.ts), so its later opens and events find it no more and are not sent.
 */
export async function forgetAllowedInstall(db: D1Database, app: string, install: string): Promise<void> {
  await db.prepare('DELETE FROM conversion_installs WHERE app = ? AND install = ?').bind(app, install).run();
}

/**
 * Records `messages` and answers the delivery messages to queue, and the messages of installs not
 * known yet: an app's event may arrive before its install's own message (both are queued after their
 * responses), so the consumer asks for it again a little later before giving up on it.
 */
export async function recordConversions(
  db: D1Database,
  messages: readonly ConversionEventMessage[],
  now: number,
): Promise<{ deliveries: ConversionDeliveryMessage[]; unknown: ConversionEventMessage[] }> {
  const apps = [...new Set(messages.map((message) => message.tenant))];
  const destinations = await enabledDestinations(db, apps);
  // An install is remembered first, so its own batch's opens and events find it.
  const installs = messages.filter((message) => message.event.kind === 'install');
  if (installs.length > 0) {
    await db.batch(
      installs.map(({ tenant, event }) =>
        db.prepare(ALLOW_INSTALL).bind(tenant, event.install, event.platform ?? '', event.at),
      ),
    );
  }
  const allowed = new Set<string>();
  for (const app of apps) {
    const asked = messages.filter((message) => message.tenant === app).map((message) => message.event.install);
    const { results } = await db.prepare(ALLOWED).bind(app, JSON.stringify(asked)).all<{ install: string }>();
    for (const { install } of results) allowed.add(`${app}\u0000${install}`);
  }
  const wanted: ConversionDeliveryMessage[] = [];
  const unknown: ConversionEventMessage[] = [];
  for (const message of messages) {
    const { tenant, event } = message;
    if (!allowed.has(`${tenant}\u0000${event.install}`)) {
      unknown.push(message);
      continue;
    }
    for (const destination of destinations) {
      if (destination.app !== tenant || platformNameOf(destination, event) === null) continue;
      wanted.push({ k: 'delivery', tenant, destination: destination.id, event });
    }
  }
  if (wanted.length === 0) return { deliveries: [], unknown };
  // A delivery's `at` is when its event arrived (the retention sweep's clock), not when it happened:
  // an app event sent days late must outlive its retries.
  await db.batch(
    wanted.map(({ destination, event }) =>
      db.prepare(RECORD).bind(destination, event.id, event.name, now, 'pending', now),
    ),
  );
  const keys = JSON.stringify(wanted.map(({ destination, event }) => [destination, event.id]));
  const { results } = await db.prepare(PENDING).bind(keys).all<{ d: string; e: string }>();
  const pending = new Set(results.map(({ d, e }) => `${d}\u0000${e}`));
  const deliveries = wanted.filter(({ destination, event }) => pending.has(`${destination}\u0000${event.id}`));
  return { deliveries, unknown };
}

/** Queues `deliveries`, 100 a call (the queue's batch limit). */
export async function queueConversionDeliveries(
  queue: Queue,
  deliveries: readonly ConversionDeliveryMessage[],
): Promise<void> {
  for (let start = 0; start < deliveries.length; start += 100) {
    await queue.sendBatch(deliveries.slice(start, start + 100).map((body) => ({ body })));
  }
}
