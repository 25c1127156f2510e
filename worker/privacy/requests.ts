/**
 * Privacy requests in D1 (`privacy_requests`, migrations/0020_privacy_requests.sql): made, read,
 * listed, and moved through OpenDSR's statuses. A request keeps its subject's keyed hashes until it
 * is done; an erasure done keeps only their digest.
 */
import {
  type IdentityType,
  OPENDSR_VERSION,
  type PrivacyStatus,
  type Receipt,
  type RequestStatus,
  type RequestType,
} from '../../shared/privacy.ts';
import type { SubjectKeys } from './subject.ts';

/** A request's row. */
export interface RequestRow {
  app: string;
  id: string;
  type: RequestType;
  identity_type: IdentityType;
  subject_keys: string | null;
  subject_digest: string;
  status: RequestStatus;
  submitted_at: number;
  received_at: number;
  expected_at: number;
  completed_at: number | null;
  callback_urls: string;
  callback_secret: string | null;
  actor: string;
  receipt: string | null;
}

/** Keeps a new request; false when the app already has one of that id. */
export async function insertRequest(db: D1Database, row: RequestRow): Promise<boolean> {
  const columns = Object.keys(row);
  const result = await db
    .prepare(
      `INSERT OR IGNORE INTO privacy_requests (${columns.join(', ')}) VALUES (${columns.map((_, at) => `?${at + 1}`).join(', ')})`,
    )
    .bind(...Object.values(row))
    .run();
  return result.meta.changes > 0;
}

export function requestOf(db: D1Database, app: string, id: string): Promise<RequestRow | null> {
  return db.prepare('SELECT * FROM privacy_requests WHERE app = ?1 AND id = ?2').bind(app, id).first<RequestRow>();
}

/** The app's newest requests, at most `limit`. */
export async function listRequests(db: D1Database, app: string, limit: number): Promise<RequestRow[]> {
  const { results } = await db
    .prepare('SELECT * FROM privacy_requests WHERE app = ?1 ORDER BY received_at DESC, id LIMIT ?2')
    .bind(app, limit)
    .all<RequestRow>();
  return results;
}

/** Marks a pending request in progress. */
export async function startRequest(db: D1Database, app: string, id: string): Promise<void> {
  await db
    .prepare("UPDATE privacy_requests SET status = 'in_progress' WHERE app = ?1 AND id = ?2 AND status = 'pending'")
    .bind(app, id)
    .run();
}

/** Completes a request with its receipt; an erasure forgets its subject's keyed hashes. */
export async function completeRequest(
  db: D1Database,
  row: RequestRow,
  receipt: Receipt,
  completedAt: number,
): Promise<void> {
  await db
    .prepare(
      "UPDATE privacy_requests SET status = 'completed', completed_at = ?3, receipt = ?4, " +
        "subject_keys = CASE WHEN type = 'erasure' THEN NULL ELSE subject_keys END WHERE app = ?1 AND id = ?2",
    )
    .bind(row.app, row.id, completedAt, JSON.stringify(receipt))
    .run();
}

/** Cancels a pending request (OpenDSR's cancellation); false when it is no longer pending. */
export async function cancelRequest(db: D1Database, app: string, id: string): Promise<boolean> {
  const result = await db
    .prepare(
      "UPDATE privacy_requests SET status = 'cancelled', subject_keys = NULL WHERE app = ?1 AND id = ?2 AND status = 'pending'",
    )
    .bind(app, id)
    .run();
  return result.meta.changes > 0;
}

/** Requests not done that were received before `before`, every app's: the hourly cron queues them again. */
export async function unfinished(db: D1Database, before: number): Promise<{ app: string; id: string }[]> {
  const { results } = await db
    .prepare(
      "SELECT app, id FROM privacy_requests WHERE status IN ('pending', 'in_progress') AND received_at < ?1 ORDER BY received_at LIMIT 500",
    )
    .bind(before)
    .all<{ app: string; id: string }>();
  return results;
}

/** The subject's keyed hashes a request keeps, or null once forgotten. */
export const keysOf = (row: RequestRow): SubjectKeys | null =>
  row.subject_keys ? (JSON.parse(row.subject_keys) as SubjectKeys) : null;

const iso = (ms: number): string => new Date(ms).toISOString();

/** A request as OpenDSR's status answer; `base` is the app's API path (`/api/privacy/requests`). */
export function statusOf(row: RequestRow, base: string): PrivacyStatus {
  return {
    subject_request_id: row.id,
    subject_request_type: row.type,
    identity_type: row.identity_type,
    request_status: row.status,
    api_version: OPENDSR_VERSION,
    received_time: iso(row.received_at),
    expected_completion_time: iso(row.expected_at),
    completed_time: row.completed_at === null ? null : iso(row.completed_at),
    results_url: row.type === 'access' && row.status === 'completed' ? `${base}/${row.id}/data` : null,
    receipt: row.receipt ? (JSON.parse(row.receipt) as Receipt) : null,
  };
}
