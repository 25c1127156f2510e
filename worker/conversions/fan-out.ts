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
// Each asked install the app knows: allowed (0), or withdrawn since (1).
const KNOWN =
  'SELECT install, withdrawn FROM conversion_installs WHERE app = ?1 AND install IN (SELECT value FROM json_each(?2))';
// A withdrawal marks the install, known or not yet: its own message, arriving later, is then ignored.
const WITHDRAW =
  'INSERT INTO conversion_installs (app, install, platform, at, withdrawn) VALUES (?1, ?2, ?3, ?4, 1) ' +
  'ON CONFLICT (app, install) DO UPDATE SET withdrawn = 1';
const RECORD =
  'INSERT OR IGNORE INTO conversion_deliveries (destination_id, event_id, name, at, status, updated_at) VALUES (?, ?, ?, ?, ?, ?)';
const PENDING =
  "SELECT destination_id AS d, event_id AS e FROM conversion_deliveries WHERE status = 'pending' AND (destination_id, event_id) IN " +
  "(SELECT json_extract(value, '$[0]'), json_extract(value, '$[1]') FROM json_each(?))";

/**
 * Marks app `app`'s install `install` (its webhooks' hash) withdrawn: its consent, sent again with an
 * open or an event, stops sends to third parties (send-facts.ts), so none of its later opens and
 * events is sent, and its own install message, were it still queued, allows it no more.
 */
export async function withdrawInstall(db: D1Database, app: string, install: string, now: number): Promise<void> {
  await db.prepare(WITHDRAW).bind(app, install, '', now).run();
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
  const known = new Map<string, boolean>();
  for (const app of apps) {
    const asked = messages.filter((message) => message.tenant === app).map((message) => message.event.install);
    const { results } = await db
      .prepare(KNOWN)
      .bind(app, JSON.stringify(asked))
      .all<{ install: string; withdrawn: number }>();
    for (const { install, withdrawn } of results) known.set(`${app}\u0000${install}`, withdrawn === 0);
  }
  const wanted: ConversionDeliveryMessage[] = [];
  const unknown: ConversionEventMessage[] = [];
  for (const message of messages) {
    const { tenant, event } = message;
    const allowed = known.get(`${tenant}\u0000${event.install}`);
    // Withdrawn: nothing more of it is sent, now or when asked again.
    if (allowed === false) continue;
    if (allowed === undefined) {
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
