/**
 * "Resend" (docs/webhooks.md#delivery-log): one message by its `webhook-id`, whatever became of it,
 * or every message of a time range the endpoint did not get — failed, dead, or never sent because
 * the endpoint was disabled when its event happened — queued again with its original body and
 * `webhook-id` and a fresh retry schedule. Events are kept 30 days; older ones cannot be sent again.
 */

import { utcDay } from '../../shared/time-zone.ts';
import type { WebhookEventType } from '../../shared/webhooks.ts';
import type { StoredEndpoint } from './endpoints.ts';
import { queueDeliveries } from './fan-out.ts';
import { type DeliveryMessage, eventIdOf } from './messages.ts';

/** The most messages one range resend queues. */
export const MAX_RESEND = 10_000;

interface Row {
  id: string;
  type: WebhookEventType;
  at: number;
  body: string;
}

const ONE =
  'SELECT e.id, e.type, e.at, e.body FROM webhook_events AS e LEFT JOIN webhook_deliveries AS d ' +
  'ON d.event_id = e.id AND d.endpoint_id = ?1 WHERE e.app = ?4 AND e.id = ?2 ' +
  'AND (d.event_id IS NOT NULL OR e.type IN (SELECT value FROM json_each(?3)))';
// The day bounds let the (day, kind, at) index narrow the scan to the range's days.
const RANGE =
  'SELECT e.id, e.type, e.at, e.body FROM webhook_events AS e LEFT JOIN webhook_deliveries AS d ' +
  'ON d.event_id = e.id AND d.endpoint_id = ?1 ' +
  'WHERE e.app = ?7 AND e.day >= ?2 AND e.day <= ?3 AND e.at >= ?4 AND e.at <= ?5 AND e.type IN (SELECT value FROM json_each(?6)) ' +
  `AND (d.status IS NULL OR d.status != 'delivered') ORDER BY e.at, e.id LIMIT ${MAX_RESEND}`;
const PENDING =
  'INSERT INTO webhook_deliveries (endpoint_id, event_id, type, at, status, attempts, updated_at, app) ' +
  "SELECT ?1, json_extract(value, '$[0]'), json_extract(value, '$[1]'), json_extract(value, '$[2]'), 'pending', 0, ?3, ?4 " +
  "FROM json_each(?2) WHERE true ON CONFLICT (endpoint_id, event_id) DO UPDATE SET status = 'pending', updated_at = ?3";

async function requeue(
  env: Env,
  { id: endpoint, app }: Pick<StoredEndpoint, 'id' | 'app'>,
  rows: readonly Row[],
  now: number,
): Promise<number> {
  if (rows.length === 0) return 0;
  const pending = JSON.stringify(rows.map((row) => [row.id, row.type, row.at]));
  await env.FUNNEL_DB.prepare(PENDING).bind(endpoint, pending, now, app).run();
  const deliveries = rows.map((row): DeliveryMessage => ({ k: 'delivery', endpoint, ...row, tenant: app }));
  await queueDeliveries(env.WEBHOOK_QUEUE, deliveries);
  return rows.length;
}

/**
 * Queues message `webhookIdText` to `endpoint` again: 1, or 0 when there is no such message for it
 * (never sent to it, and of a type it does not take) or it is too old.
 */
export async function resendOne(
  env: Env,
  endpoint: StoredEndpoint,
  webhookIdText: string,
  now = Date.now(),
): Promise<number> {
  const row = await env.FUNNEL_DB.prepare(ONE)
    .bind(endpoint.id, eventIdOf(webhookIdText), JSON.stringify(endpoint.events), endpoint.app)
    .first<Row>();
  return requeue(env, endpoint, row ? [row] : [], now);
}

/**
 * Queues every message of `endpoint`'s types between `from` and `to` (ms, both included) that it did
 * not get, since it was made.
 */
export async function resendRange(
  env: Env,
  endpoint: StoredEndpoint,
  from: number,
  to: number,
  now = Date.now(),
): Promise<number> {
  // Events from before the endpoint existed were never its to get.
  const start = Math.max(from, endpoint.createdAt);
  const rows = await env.FUNNEL_DB.prepare(RANGE)
    .bind(endpoint.id, utcDay(start), utcDay(to), start, to, JSON.stringify(endpoint.events), endpoint.app)
    .all<Row>();
  // D1 binds at most 100 KB per value: the rows go in chunks.
  let sent = 0;
  for (let start = 0; start < rows.results.length; start += 1_000) {
    sent += await requeue(env, endpoint, rows.results.slice(start, start + 1_000), now);
  }
  return sent;
}
