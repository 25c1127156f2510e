/**
 * Delivering a conversion to its destination once (docs/conversions.md#exactly-once): an attempt
 * first claims its delivery row (`pending`, or `sending` whose holder's lease ran out), so two copies
 * of one message never send at once and a delivered one is never sent again; the attempt's outcome
 * then settles the row (`delivered`, `failed`, `pending` again for a retry, `dead` after the last
 * attempt) and goes to the destination's log (`conversion_attempts`, its newest 200 kept).
 */
import type { ConversionAttemptView } from '../../shared/conversions.ts';
import { MAX_ATTEMPTS, retryDelaySeconds } from '../webhooks/retry-policy.ts';
import type { StoredDestination } from './destinations.ts';
import type { ConversionDeliveryMessage } from './messages.ts';
import { requestFor, tooOldBy } from './platforms/index.ts';
import { CONVERSION_TIMEOUT_MS, sendRequest } from './send-request.ts';

/** The newest attempts kept per destination. */
export const KEPT_ATTEMPTS = 200;

const CLAIM =
  "UPDATE conversion_deliveries SET status = 'sending', lease_until = ?3, attempts = attempts + 1, updated_at = ?4 " +
  "WHERE destination_id = ?1 AND event_id = ?2 AND (status = 'pending' OR (status = 'sending' AND lease_until < ?4)) " +
  'RETURNING attempts';
const SETTLE =
  'UPDATE conversion_deliveries SET status = ?3, updated_at = ?4 WHERE destination_id = ?1 AND event_id = ?2';
const STATUS = 'SELECT status, lease_until FROM conversion_deliveries WHERE destination_id = ?1 AND event_id = ?2';
const LOG =
  'INSERT INTO conversion_attempts (destination_id, event_id, name, attempt, status, outcome, latency_ms, error, at) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?)';
const TRIM =
  'DELETE FROM conversion_attempts WHERE destination_id = ?1 AND seq <= (SELECT seq FROM conversion_attempts WHERE destination_id = ?1 ORDER BY seq DESC LIMIT 1 OFFSET ?2)';

/** What the queue does with the message after an attempt. */
export type Next = { ack: true } | { ack: false; delaySeconds: number };

export interface DeliverOptions {
  now?: () => number;
  timeoutMs?: number;
}

/**
 * Delivers `message` to `destination` (absent: removed, the message is dropped), `attempt` being the
 * queue's count of this message. Answers what the queue should do with it.
 */
export async function deliverConversion(
  env: Env,
  message: ConversionDeliveryMessage,
  destination: StoredDestination | undefined,
  attempt: number,
  { now = Date.now, timeoutMs = CONVERSION_TIMEOUT_MS }: DeliverOptions = {},
): Promise<Next> {
  const db = env.FUNNEL_DB;
  const key = [message.destination, message.event.id] as const;
  if (!destination || destination.app !== message.tenant) return { ack: true };
  const last = attempt >= MAX_ATTEMPTS;
  if (!destination.enabled) {
    await db
      .prepare(SETTLE)
      .bind(...key, 'dead', now())
      .run();
    return { ack: true };
  }
  const claimed = await db
    .prepare(CLAIM)
    .bind(...key, now() + timeoutMs + 5_000, now())
    .first<{ attempts: number }>();
  if (!claimed) {
    // Delivered, refused or dead already: nothing to do. Held by another attempt: look again after its lease.
    const row = await db
      .prepare(STATUS)
      .bind(...key)
      .first<{ status: string; lease_until: number }>();
    if (row?.status === 'sending')
      return { ack: false, delaySeconds: Math.max(1, Math.ceil((row.lease_until - now()) / 1000)) };
    return { ack: true };
  }
  if (tooOldBy(destination, message.event, now()) > 0) {
    // Not sent, as the platform would refuse it: the log says why (docs/conversions.md#when-it-happened).
    const days = Math.floor((now() - message.event.at) / 86_400_000);
    const error = `not sent: it happened ${days} days ago, older than ${destination.platform} takes`;
    await db.batch([
      db.prepare(SETTLE).bind(...key, 'skipped', now()),
      db.prepare(LOG).bind(...key, message.event.name, claimed.attempts, 0, 'failed', 0, error, now()),
      db.prepare(TRIM).bind(message.destination, KEPT_ATTEMPTS),
    ]);
    return { ack: true };
  }
  const request = await requestFor(destination, message.event, now());
  if (!request) {
    await db
      .prepare(SETTLE)
      .bind(...key, 'skipped', now())
      .run();
    return { ack: true };
  }
  const result = await sendRequest(env, destination.platform, request, timeoutMs);
  const retryIn = result.verdict === 'retry' && !last ? retryDelaySeconds(attempt, result.retryAfter) : null;
  const status =
    result.verdict === 'delivered'
      ? 'delivered'
      : result.verdict === 'final'
        ? 'failed'
        : retryIn === null
          ? 'dead'
          : 'pending';
  const outcome: ConversionAttemptView['outcome'] =
    status === 'delivered' ? 'delivered' : status === 'failed' ? 'failed' : status === 'dead' ? 'dead' : 'retry';
  const at = now();
  await db.batch([
    db.prepare(SETTLE).bind(...key, status, at),
    db
      .prepare(LOG)
      .bind(...key, message.event.name, claimed.attempts, result.status, outcome, result.latencyMs, result.error, at),
    db.prepare(TRIM).bind(message.destination, KEPT_ATTEMPTS),
  ]);
  // After the last attempt the queue's own retry moves the message to the dead-letter queue.
  if (retryIn !== null) return { ack: false, delaySeconds: retryIn };
  return last && result.verdict === 'retry' ? { ack: false, delaySeconds: 0 } : { ack: true };
}

/** The newest `limit` attempts of `destination`. */
export async function recentConversionAttempts(
  db: D1Database,
  destination: string,
  limit: number,
): Promise<ConversionAttemptView[]> {
  const { results } = await db
    .prepare('SELECT * FROM conversion_attempts WHERE destination_id = ? ORDER BY seq DESC LIMIT ?')
    .bind(destination, limit)
    .all<{
      event_id: string;
      name: string;
      attempt: number;
      status: number;
      outcome: ConversionAttemptView['outcome'];
      latency_ms: number;
      error: string;
      at: number;
    }>();
  return results.map((row) => ({
    eventId: row.event_id,
    name: row.name,
    attempt: row.attempt,
    status: row.status,
    outcome: row.outcome,
    latencyMs: row.latency_ms,
    error: row.error,
    at: new Date(row.at).toISOString(),
  }));
}
