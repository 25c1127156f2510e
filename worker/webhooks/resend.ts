/**
 * "Resend" (docs/webhooks.md#delivery-log): one message by its `webhook-id`, whatever became of it,
 * or every message of a time range that was not delivered (failed or dead), queued again with their
 * original body and `webhook-id` and a fresh retry schedule. Events are kept 30 days; older ones
 * cannot be sent again.
 */
import { queueDeliveries } from './fan-out.ts';
import type { DeliveryMessage } from './messages.ts';
import { eventIdOf } from './messages.ts';

/** The most messages one range resend queues. */
export const MAX_RESEND = 10_000;

interface Row {
  id: string;
  type: DeliveryMessage['type'];
  at: number;
  body: string;
}

const SELECT =
  'SELECT e.id, e.type, e.at, e.body FROM webhook_deliveries AS d JOIN webhook_events AS e ON e.id = d.event_id ' +
  'WHERE d.endpoint_id = ?1';
const PENDING =
  "UPDATE webhook_deliveries SET status = 'pending', updated_at = ?3 WHERE endpoint_id = ?1 AND event_id IN " +
  '(SELECT value FROM json_each(?2))';

async function requeue(env: Env, endpoint: string, rows: readonly Row[], now: number): Promise<number> {
  if (rows.length === 0) return 0;
  const ids = JSON.stringify(rows.map((row) => row.id));
  await env.FUNNEL_DB.prepare(PENDING).bind(endpoint, ids, now).run();
  const deliveries = rows.map((row): DeliveryMessage => ({ k: 'delivery', endpoint, ...row }));
  await queueDeliveries(env.WEBHOOK_QUEUE, deliveries);
  return rows.length;
}

/** Queues message `webhookIdText` to `endpoint` again: 1, or 0 when there is no such message (or it is too old). */
export async function resendOne(env: Env, endpoint: string, webhookIdText: string, now = Date.now()): Promise<number> {
  const row = await env.FUNNEL_DB.prepare(`${SELECT} AND d.event_id = ?2`)
    .bind(endpoint, eventIdOf(webhookIdText))
    .first<Row>();
  return requeue(env, endpoint, row ? [row] : [], now);
}

/** Queues every undelivered message to `endpoint` of events between `from` and `to` (ms, both included). */
export async function resendRange(
  env: Env,
  endpoint: string,
  from: number,
  to: number,
  now = Date.now(),
): Promise<number> {
  const rows = await env.FUNNEL_DB.prepare(
    `${SELECT} AND d.at >= ?2 AND d.at <= ?3 AND d.status != 'delivered' ORDER BY d.at LIMIT ${MAX_RESEND}`,
  )
    .bind(endpoint, from, to)
    .all<Row>();
  // D1 binds at most 100 KB per value: the ids go in chunks.
  let sent = 0;
  for (let start = 0; start < rows.results.length; start += 1_000) {
    sent += await requeue(env, endpoint, rows.results.slice(start, start + 1_000), now);
  }
  return sent;
}
