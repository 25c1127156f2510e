/**
 * The operator's endpoints in D1 (docs/webhooks.md#endpoints): made, listed, changed, removed, their
 * secret rotated (the old one still signing for `ROTATION_OVERLAP_MS`); each listed with its delivery
 * counts. The secret leaves only in the answers of `createEndpoint` and `rotateSecret`; each change is
 * committed with its audit entry, which keeps the endpoint's view and never its secret.
 */
import { toBase64Url } from '../../shared/base64url.ts';
import {
  DEFAULT_EVENT_TYPES,
  type DeliveryCounts,
  DISABLED_REASONS,
  type DisabledReason,
  type EndpointCreate,
  type EndpointUpdate,
  type EndpointView,
  type EndpointWithSecret,
  WEBHOOK_EVENT_TYPES,
  type WebhookEventType,
} from '../../shared/webhooks.ts';
import type { ChangeRecord, CommitChange } from '../facts.ts';
import { newSecret } from './signing.ts';

/** An endpoint as stored, with its secret: for the consumer, never for an answer. */
export interface StoredEndpoint {
  id: string;
  /** The app the endpoint belongs to (docs/routes.md#apps): it hears only that app's events. */
  app: string;
  url: string;
  description: string;
  events: WebhookEventType[];
  secret: string;
  /** The secret the last rotation replaced, and until when (ms) it still signs; null when none. */
  previousSecret: string | null;
  previousSecretUntil: number | null;
  enabled: boolean;
  disabledReason: DisabledReason | null;
  failingSince: number | null;
  createdAt: number;
  updatedAt: number;
}

interface EndpointRow {
  id: string;
  app: string;
  url: string;
  description: string;
  events: string;
  secret: string;
  previous_secret: string | null;
  previous_secret_until: number | null;
  enabled: number;
  disabled_reason: string | null;
  failing_since: number | null;
  created_at: number;
  updated_at: number;
}

const TYPES = new Set<string>(WEBHOOK_EVENT_TYPES);
const REASONS = new Set<string | null>(DISABLED_REASONS);
const isReason = (reason: string | null): reason is DisabledReason => REASONS.has(reason);

function fromRow(row: EndpointRow): StoredEndpoint {
  const events: unknown = JSON.parse(row.events);
  return {
    id: row.id,
    app: row.app,
    url: row.url,
    description: row.description,
    events: Array.isArray(events) ? events.filter((type): type is WebhookEventType => TYPES.has(type)) : [],
    secret: row.secret,
    previousSecret: row.previous_secret,
    previousSecretUntil: row.previous_secret_until,
    enabled: row.enabled === 1,
    disabledReason: isReason(row.disabled_reason) ? row.disabled_reason : null,
    failingSince: row.failing_since,
    createdAt: row.created_at,
    updatedAt: row.updated_at,
  };
}

const iso = (time: number): string => new Date(time).toISOString();

/** An endpoint's id: `ep_` and 16 characters of URL-safe base64 (12 random bytes). */
export const ENDPOINT_ID = /^ep_[\w-]{16}$/;

/**
 * How long a rotated secret keeps signing beside the new one (docs/webhooks.md#signing): a day for
 * the operator to give the receiver the new secret, with nothing refused meanwhile.
 */
export const ROTATION_OVERLAP_MS = 24 * 3_600_000;

/** The secret a rotation replaced, while it still signs at `now`; null otherwise. */
export function previousSecretAt(endpoint: StoredEndpoint, now = Date.now()): string | null {
  return endpoint.previousSecret && (endpoint.previousSecretUntil ?? 0) > now ? endpoint.previousSecret : null;
}
const NO_COUNTS: DeliveryCounts = { pending: 0, delivered: 0, failed: 0, dead: 0 };

/** `endpoint` as the API shows it at `now`, with `counts`. */
export function endpointView(
  endpoint: StoredEndpoint,
  counts: DeliveryCounts = NO_COUNTS,
  now = Date.now(),
): EndpointView {
  const overlapping = previousSecretAt(endpoint, now) !== null;
  return {
    id: endpoint.id,
    url: endpoint.url,
    description: endpoint.description,
    events: endpoint.events,
    enabled: endpoint.enabled,
    disabledReason: endpoint.enabled ? null : endpoint.disabledReason,
    failingSince: endpoint.failingSince === null ? null : iso(endpoint.failingSince),
    previousSecretUntil:
      overlapping && endpoint.previousSecretUntil !== null ? iso(endpoint.previousSecretUntil) : null,
    createdAt: iso(endpoint.createdAt),
    updatedAt: iso(endpoint.updatedAt),
    counts,
  };
}

/** An endpoint as the audit log keeps it (docs/operators.md#audit-log): its view, never a secret. */
function audited(endpoint: StoredEndpoint, now: number): Omit<EndpointView, 'counts'> {
  const { counts: _, ...view } = endpointView(endpoint, NO_COUNTS, now);
  return view;
}

/** The audit record of a change of endpoint `id` from `before` to `after`. */
function recordOf(
  action: ChangeRecord['action'],
  id: string,
  before: StoredEndpoint | null,
  after: StoredEndpoint | null,
  now: number,
): ChangeRecord {
  const view = (endpoint: StoredEndpoint | null) => (endpoint ? audited(endpoint, now) : null);
  return { kind: 'webhook', action, target: id, before: view(before), after: view(after) };
}

/** Every endpoint, oldest first. */
export async function listEndpoints(db: D1Database, app: string): Promise<StoredEndpoint[]> {
  const rows = await db
    .prepare('SELECT * FROM webhook_endpoints WHERE app = ?1 ORDER BY created_at, id')
    .bind(app)
    .all<EndpointRow>();
  return rows.results.map(fromRow);
}

/** Every app's endpoints, for the queue's consumer, which checks each delivery's app against its endpoint's. */
export async function everyEndpoint(db: D1Database): Promise<StoredEndpoint[]> {
  const rows = await db.prepare('SELECT * FROM webhook_endpoints').all<EndpointRow>();
  return rows.results.map(fromRow);
}

/** One endpoint, or null. */
export async function getEndpoint(db: D1Database, app: string, id: string): Promise<StoredEndpoint | null> {
  const row = await db
    .prepare('SELECT * FROM webhook_endpoints WHERE app = ?1 AND id = ?2')
    .bind(app, id)
    .first<EndpointRow>();
  return row ? fromRow(row) : null;
}

/** The delivery counts of every endpoint, by id. */
export async function deliveryCounts(db: D1Database, app: string): Promise<Map<string, DeliveryCounts>> {
  const rows = await db
    .prepare(
      'SELECT endpoint_id, status, COUNT(*) AS n FROM webhook_deliveries WHERE app = ?1 GROUP BY endpoint_id, status',
    )
    .bind(app)
    .all<{ endpoint_id: string; status: string; n: number }>();
  const counts = new Map<string, DeliveryCounts>();
  for (const row of rows.results) {
    const of = counts.get(row.endpoint_id) ?? { ...NO_COUNTS };
    if (row.status in of) of[row.status as keyof DeliveryCounts] = row.n;
    counts.set(row.endpoint_id, of);
  }
  return counts;
}

/**
 * Stores a new endpoint with a fresh secret; `url` was checked by the caller. Null when another
 * endpoint already has that URL (docs/webhooks.md#endpoints): two endpoints of one URL would sign and
 * send every message twice. The check and the insert are one statement, so two calls at once cannot
 * both add it.
 */
export async function createEndpoint(
  db: D1Database,
  app: string,
  request: EndpointCreate,
  commit: CommitChange,
  now = Date.now(),
): Promise<EndpointWithSecret | null> {
  const endpoint: StoredEndpoint = {
    id: `ep_${toBase64Url(crypto.getRandomValues(new Uint8Array(12)))}`,
    app,
    url: request.url,
    description: request.description ?? '',
    events: [...new Set(request.events ?? DEFAULT_EVENT_TYPES)],
    secret: newSecret(),
    previousSecret: null,
    previousSecretUntil: null,
    enabled: request.enabled ?? true,
    disabledReason: request.enabled === false ? 'operator' : null,
    failingSince: null,
    createdAt: now,
    updatedAt: now,
  };
  const insert = db
    .prepare(
      'INSERT INTO webhook_endpoints (app, id, url, description, events, secret, enabled, disabled_reason, created_at, updated_at) ' +
        'SELECT ?9, ?1, ?2, ?3, ?4, ?5, ?6, ?7, ?8, ?8 WHERE NOT EXISTS (SELECT 1 FROM webhook_endpoints WHERE app = ?9 AND url = ?2)',
    )
    .bind(
      endpoint.id,
      endpoint.url,
      endpoint.description,
      JSON.stringify(endpoint.events),
      endpoint.secret,
      endpoint.enabled ? 1 : 0,
      endpoint.disabledReason,
      now,
      app,
    );
  const [inserted] = await commit([insert], recordOf('created', endpoint.id, null, endpoint, now));
  if ((inserted?.meta.changes ?? 0) === 0) return null;
  return { endpoint: endpointView(endpoint), secret: endpoint.secret };
}

/**
 * Applies `changes` to `endpoint`; enabling clears the failure state, disabling marks it the
 * operator's. Null, and nothing changed, when the new URL is another endpoint's.
 */
export async function updateEndpoint(
  db: D1Database,
  endpoint: StoredEndpoint,
  changes: EndpointUpdate,
  commit: CommitChange,
  now = Date.now(),
): Promise<StoredEndpoint | null> {
  const enabled = changes.enabled ?? endpoint.enabled;
  const next: StoredEndpoint = {
    ...endpoint,
    url: changes.url ?? endpoint.url,
    description: changes.description ?? endpoint.description,
    events: changes.events ? [...new Set(changes.events)] : endpoint.events,
    enabled,
    disabledReason: enabled ? null : changes.enabled === false ? 'operator' : endpoint.disabledReason,
    failingSince: changes.enabled === true ? null : endpoint.failingSince,
    updatedAt: now,
  };
  const update = db
    .prepare(
      'UPDATE webhook_endpoints SET url = ?2, description = ?3, events = ?4, enabled = ?5, disabled_reason = ?6, ' +
        'failing_since = ?7, updated_at = ?8 WHERE id = ?1 AND app = ?9 ' +
        'AND NOT EXISTS (SELECT 1 FROM webhook_endpoints WHERE app = ?9 AND url = ?2 AND id <> ?1)',
    )
    .bind(
      next.id,
      next.url,
      next.description,
      JSON.stringify(next.events),
      next.enabled ? 1 : 0,
      next.disabledReason,
      next.failingSince,
      now,
      next.app,
    );
  const [updated] = await commit([update], recordOf('updated', next.id, endpoint, next, now));
  return (updated?.meta.changes ?? 0) === 0 ? null : next;
}

/** Removes an endpoint with its deliveries and log, committed by `commit`; false when there was none. */
export async function deleteEndpoint(
  db: D1Database,
  endpoint: StoredEndpoint,
  commit: CommitChange,
  now = Date.now(),
): Promise<boolean> {
  const { id, app } = endpoint;
  const statements = [
    db.prepare('DELETE FROM webhook_endpoints WHERE id = ?1 AND app = ?2').bind(id, app),
    db.prepare('DELETE FROM webhook_deliveries WHERE endpoint_id = ?1').bind(id),
    db.prepare('DELETE FROM webhook_attempts WHERE endpoint_id = ?1').bind(id),
  ];
  const [removed] = await commit(statements, recordOf('deleted', id, endpoint, null, now));
  return (removed?.meta.changes ?? 0) > 0;
}

/**
 * Gives `endpoint` a new secret, which signs from the next attempt on; the secret it replaces keeps
 * signing beside it for `ROTATION_OVERLAP_MS`. A second rotation within that window ends the first's
 * overlap: only the secret just replaced keeps signing. Answers the endpoint as it now is.
 */
export async function rotateSecret(
  db: D1Database,
  endpoint: StoredEndpoint,
  commit: CommitChange,
  now = Date.now(),
): Promise<StoredEndpoint> {
  const next: StoredEndpoint = {
    ...endpoint,
    secret: newSecret(),
    previousSecret: endpoint.secret,
    previousSecretUntil: now + ROTATION_OVERLAP_MS,
    updatedAt: now,
  };
  const update = db
    .prepare(
      'UPDATE webhook_endpoints SET secret = ?2, previous_secret = ?3, previous_secret_until = ?4, updated_at = ?5 WHERE id = ?1 AND app = ?6',
    )
    .bind(next.id, next.secret, next.previousSecret, next.previousSecretUntil, now, next.app);
  await commit([update], recordOf('rotated', next.id, endpoint, next, now));
  return next;
}
