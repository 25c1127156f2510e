/**
 * What the consumer writes after a batch of attempts (docs/webhooks.md#delivery-log): one log row
 * per attempt (the newest 200 kept per endpoint), each delivery's state, and each endpoint's failure
 * state: the first failure since its last success is remembered, an endpoint whose receiver answered
 * `410 Gone` is disabled at once, and one that has failed every attempt for 3 days is disabled. A fixed
 * number of statements, whatever the batch's size.
 */
import type { StoredEndpoint } from './endpoints.ts';
import { appOfWebhook, type DeliveryMessage } from './messages.ts';
import { DISABLE_AFTER_MS, GONE_STATUS } from './retry-policy.ts';

/** Attempts kept per endpoint. */
export const LOG_SIZE = 200;

export type DeliveryStatus = 'pending' | 'delivered' | 'failed' | 'dead';

export interface Outcome {
  message: Pick<DeliveryMessage, 'endpoint' | 'id' | 'type' | 'tenant'>;
  attempt: number;
  status: DeliveryStatus;
  httpStatus: number;
  latencyMs: number;
  error: string;
  /** Seconds until the queue tries again, null when no attempt follows. */
  retryIn: number | null;
}

const at = (index: number): string => `json_extract(value, '$[${index}]')`;

const LOG =
  'INSERT INTO webhook_attempts (endpoint_id, event_id, type, attempt, at, status, latency_ms, error, retry_in, app) ' +
  `SELECT ${at(0)}, ${at(1)}, ${at(2)}, ${at(3)}, ?2, ${at(4)}, ${at(5)}, ${at(6)}, ${at(7)}, ${at(8)} FROM json_each(?1)`;
// A delivery already delivered stays so: a late duplicate attempt never makes it look lost.
const STATE =
  'UPDATE webhook_deliveries SET status = j.status, attempts = MAX(attempts, j.attempt), updated_at = ?2 ' +
  `FROM (SELECT ${at(0)} AS endpoint, ${at(1)} AS event, ${at(2)} AS status, ${at(3)} AS attempt FROM json_each(?1)) AS j ` +
  "WHERE endpoint_id = j.endpoint AND event_id = j.event AND webhook_deliveries.status != 'delivered'";
const SUCCEEDED = 'UPDATE webhook_endpoints SET failing_since = NULL WHERE id IN (SELECT value FROM json_each(?1))';
const FAILED =
  'UPDATE webhook_endpoints SET failing_since = COALESCE(failing_since, ?2) WHERE id IN (SELECT value FROM json_each(?1))';
const GONE =
  "UPDATE webhook_endpoints SET enabled = 0, disabled_reason = 'gone', updated_at = ?2 " +
  'WHERE id IN (SELECT value FROM json_each(?1)) AND enabled = 1';
const DISABLE =
  "UPDATE webhook_endpoints SET enabled = 0, disabled_reason = 'failing', updated_at = ?2 " +
  'WHERE id IN (SELECT value FROM json_each(?1)) AND enabled = 1 AND failing_since <= ?3';
const PRUNE =
  'DELETE FROM webhook_attempts AS a WHERE a.endpoint_id IN (SELECT value FROM json_each(?1)) AND a.seq <= ' +
  `(SELECT b.seq FROM webhook_attempts AS b WHERE b.endpoint_id = a.endpoint_id ORDER BY b.seq DESC LIMIT 1 OFFSET ${LOG_SIZE})`;

/** Writes `outcomes` (attempts made at `now`) to D1. Throws when D1 does. */
export async function recordOutcomes(db: D1Database, outcomes: readonly Outcome[], now = Date.now()): Promise<void> {
  if (outcomes.length === 0) return;
  const tried = outcomes.filter((outcome) => outcome.attempt > 0);
  const succeeded = new Set(tried.filter((o) => o.status === 'delivered').map((o) => o.message.endpoint));
  const failed = new Set(tried.map((o) => o.message.endpoint).filter((endpoint) => !succeeded.has(endpoint)));
  const gone = new Set(tried.filter((o) => o.httpStatus === GONE_STATUS).map((o) => o.message.endpoint));
  const log = tried.map((o) => [
    o.message.endpoint,
    o.message.id,
    o.message.type,
    o.attempt,
    o.httpStatus,
    o.latencyMs,
    o.error,
    o.retryIn,
    appOfWebhook(o.message),
  ]);
  const state = outcomes.map((o) => [o.message.endpoint, o.message.id, o.status, o.attempt]);
  const endpoints = JSON.stringify([...new Set(tried.map((o) => o.message.endpoint))]);
  await db.batch([
    db.prepare(LOG).bind(JSON.stringify(log), now),
    db.prepare(STATE).bind(JSON.stringify(state), now),
    db.prepare(SUCCEEDED).bind(JSON.stringify([...succeeded])),
    db.prepare(FAILED).bind(JSON.stringify([...failed]), now),
    db.prepare(GONE).bind(JSON.stringify([...gone]), now),
    db.prepare(DISABLE).bind(JSON.stringify([...failed]), now, now - DISABLE_AFTER_MS),
    db.prepare(PRUNE).bind(endpoints),
  ]);
}

/** Logs a test delivery's attempt (type `test`): no delivery state, no failure count. */
export async function logTestAttempt(
  db: D1Database,
  endpoint: Pick<StoredEndpoint, 'id' | 'app'>,
  id: string,
  result: { status: number; latencyMs: number; error: string },
  now = Date.now(),
): Promise<void> {
  await db
    .prepare(
      'INSERT INTO webhook_attempts (endpoint_id, event_id, type, attempt, at, status, latency_ms, error, app) ' +
        "VALUES (?1, ?2, 'test', 1, ?3, ?4, ?5, ?6, ?7)",
    )
    .bind(endpoint.id, id, now, result.status, result.latencyMs, result.error, endpoint.app)
    .run();
}

/** A row of the delivery log. */
export interface AttemptRow {
  event_id: string;
  type: string;
  attempt: number;
  at: number;
  status: number;
  latency_ms: number;
  error: string;
  retry_in: number | null;
}

/** The newest `limit` attempts of `endpoint`, newest first. */
export async function recentAttempts(db: D1Database, endpoint: string, limit: number): Promise<AttemptRow[]> {
  const rows = await db
    .prepare(
      'SELECT event_id, type, attempt, at, status, latency_ms, error, retry_in FROM webhook_attempts WHERE endpoint_id = ?1 ' +
        'ORDER BY seq DESC LIMIT ?2',
    )
    .bind(endpoint, limit)
    .all<AttemptRow>();
  return rows.results;
}
