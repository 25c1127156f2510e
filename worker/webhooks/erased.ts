/**
 * A subject erased from the webhooks (docs/privacy.md#requests-erasure-and-access): its events, their
 * deliveries and delivery log in D1, found by the keyed hashes they carry (an install event's id is
 * the install's ledger key; `data.install` the install's webhook hash). A message of it still in the
 * queue or the dead-letter queue cannot be taken out of there, so the SHA-256 of its hashes (not the
 * hashes, which no store keeps any more) is kept for `ERASED_KEEP_MS` (`webhook_erased`), and the
 * consumers drop a message whose hashes digest to one of them, unsent and unrecorded.
 */
import { DAY_MS } from '../../shared/time-zone.ts';
import { appOfWebhook } from './messages.ts';

/** Longer than a message stays in a queue or its dead-letter queue (Cloudflare keeps one at most 14 days). */
export const ERASED_KEEP_MS = 14 * DAY_MS;

/** The SHA-256 (hex) of a keyed hash: what `webhook_erased` keeps of it. */
async function digestOf(hash: string): Promise<string> {
  const digest = await crypto.subtle.digest('SHA-256', new TextEncoder().encode(hash));
  return Array.from(new Uint8Array(digest), (byte) => byte.toString(16).padStart(2, '0')).join('');
}

/** The keyed hashes a subject's webhook messages carry. */
export interface WebhookSubject {
  /** Event ids (an install's ledger key is its `install` event's id). */
  eventIds: readonly string[];
  /** `data.install` of its install, open and app events (send-facts.ts `installHash`). */
  installs: readonly string[];
  /** `data.slug` of its `link.*` events: the invite links the app made for it, which name it as inviter. */
  links?: readonly string[];
}

const EVENTS =
  'SELECT id, type, day, at, body FROM webhook_events WHERE app = ?1 AND (id IN (SELECT value FROM json_each(?2)) ' +
  "OR json_extract(body, '$.data.install') IN (SELECT value FROM json_each(?3)) " +
  "OR (type LIKE 'link.%' AND json_extract(body, '$.data.slug') IN (SELECT value FROM json_each(?4))))";

/**
 * The subject's events, deliveries and delivery log of app `app`, by table; `erase` deletes them and
 * keeps the hashes so queued messages are dropped. Answers the rows found.
 */
export async function webhookSubjectRows(
  db: D1Database,
  app: string,
  subject: WebhookSubject,
  erase: boolean,
  now: number,
): Promise<Record<string, Record<string, unknown>[]>> {
  const hashes = await Promise.all([...subject.eventIds, ...subject.installs, ...(subject.links ?? [])].map(digestOf));
  const events = await db
    .prepare(EVENTS)
    .bind(app, JSON.stringify(subject.eventIds), JSON.stringify(subject.installs), JSON.stringify(subject.links ?? []))
    .all<Record<string, unknown>>();
  const ids = JSON.stringify(events.results.map((row) => String(row.id)));
  const deliveries = db
    .prepare(
      'SELECT endpoint_id, event_id, type, at, status FROM webhook_deliveries WHERE app = ?1 AND event_id IN (SELECT value FROM json_each(?2))',
    )
    .bind(app, ids);
  const attempts = db
    .prepare(
      'SELECT endpoint_id, event_id, type, attempt, at, status FROM webhook_attempts WHERE app = ?1 AND event_id IN (SELECT value FROM json_each(?2))',
    )
    .bind(app, ids);
  const [delivered, tried] = await db.batch<Record<string, unknown>>([deliveries, attempts]);
  const rows: Record<string, Record<string, unknown>[]> = {};
  if (events.results.length > 0) rows.webhook_events = events.results;
  if (delivered?.results.length) rows.webhook_deliveries = delivered.results;
  if (tried?.results.length) rows.webhook_attempts = tried.results;
  if (!erase) return rows;
  const within = 'app = ?1 AND event_id IN (SELECT value FROM json_each(?2))';
  await db.batch([
    db.prepare('DELETE FROM webhook_events WHERE app = ?1 AND id IN (SELECT value FROM json_each(?2))').bind(app, ids),
    db.prepare(`DELETE FROM webhook_deliveries WHERE ${within}`).bind(app, ids),
    db.prepare(`DELETE FROM webhook_attempts WHERE ${within}`).bind(app, ids),
    db
      .prepare(
        'INSERT INTO webhook_erased (app, hash, until) SELECT ?1, value, ?3 FROM json_each(?2) WHERE true ' +
          'ON CONFLICT (app, hash) DO UPDATE SET until = excluded.until',
      )
      .bind(app, JSON.stringify(hashes), now + ERASED_KEEP_MS),
    db.prepare('DELETE FROM webhook_erased WHERE until < ?1').bind(now),
  ]);
  return rows;
}

/** The hashes of a message that name a subject: its event id, and its body's `data.install`. */
function hashesOf(message: { id: string; body: string }): string[] {
  try {
    const { type, data } = JSON.parse(message.body) as { type?: unknown; data?: { install?: unknown; slug?: unknown } };
    // A link's event names its slug: an erased user's invite link is dropped by it.
    const named = String(type).startsWith('link.') ? data?.slug : data?.install;
    return typeof named === 'string' && named ? [message.id, named] : [message.id];
  } catch {
    return [message.id];
  }
}

/**
 * Which of `subjects` (an app and the keyed hashes a queued message carries) is an erased subject's,
 * in order: one read of D1 for them all. The conversions' consumer asks it too (docs/conversions.md).
 */
export async function erasedAmong(
  db: D1Database,
  subjects: readonly { app: string; hashes: readonly string[] }[],
  now: number,
): Promise<boolean[]> {
  if (subjects.length === 0) return [];
  const digests = new Map<string, string>();
  for (const hash of subjects.flatMap((subject) => subject.hashes))
    if (!digests.has(hash)) digests.set(hash, await digestOf(hash));
  const digestOfHash = (hash: string) => digests.get(hash) ?? '';
  const pairs = subjects.flatMap((subject) => subject.hashes.map((hash) => [subject.app, digestOfHash(hash)]));
  const { results } = await db
    .prepare(
      'SELECT app, hash FROM webhook_erased WHERE until >= ?2 AND (app, hash) IN ' +
        "(SELECT json_extract(value, '$[0]'), json_extract(value, '$[1]') FROM json_each(?1))",
    )
    .bind(JSON.stringify(pairs), now)
    .all<{ app: string; hash: string }>();
  if (results.length === 0) return subjects.map(() => false);
  const erased = new Set(results.map((row) => `${row.app}\n${row.hash}`));
  return subjects.map((subject) => subject.hashes.some((hash) => erased.has(`${subject.app}\n${digestOfHash(hash)}`)));
}

/**
 * The messages of `messages` that are not an erased subject's; an erased one is handed to `drop`.
 * One read of D1 per batch.
 */
export async function withoutErased<M extends { id: string; body: string; tenant?: string | undefined }>(
  db: D1Database,
  messages: readonly M[],
  now: number,
): Promise<{ kept: M[]; dropped: M[] }> {
  const erased = await erasedAmong(
    db,
    messages.map((message) => ({ app: appOfWebhook(message), hashes: hashesOf(message) })),
    now,
  );
  return {
    kept: messages.filter((_, at) => !erased[at]),
    dropped: messages.filter((_, at) => erased[at]),
  };
}
