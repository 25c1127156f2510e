/**
 * The destinations of each app (docs/conversions.md#admin-api), in D1 (`conversion_destinations`):
 * read, made, changed and removed; their tokens are kept for sending and never answered.
 */
import * as v from 'valibot';
import { toBase64Url } from '../../shared/base64url.ts';
import {
  type ConversionCounts,
  type ConversionPlatform,
  type DestinationCreate,
  type DestinationUpdate,
  type DestinationView,
  NEEDS_TOKEN,
  SETTINGS_SCHEMAS,
} from '../../shared/conversions.ts';
import { checkEndpointUrl } from '../webhooks/endpoint-url.ts';
import type { Sendable } from './platforms/index.ts';
import { unknownMacros } from './platforms/postback.ts';

/** A destination id: `cd_` and 16 random bytes. */
export const DESTINATION_ID = /^cd_[\w-]{22}$/;

export interface StoredDestination extends Sendable {
  id: string;
  app: string;
  name: string;
  enabled: boolean;
  createdAt: number;
  updatedAt: number;
}

interface Row {
  id: string;
  app: string;
  platform: ConversionPlatform;
  name: string;
  settings: string;
  token: string;
  events: string;
  enabled: number;
  created_at: number;
  updated_at: number;
}

const fromRow = (row: Row): StoredDestination => ({
  id: row.id,
  app: row.app,
  platform: row.platform,
  name: row.name,
  settings: JSON.parse(row.settings) as StoredDestination['settings'],
  token: row.token,
  events: JSON.parse(row.events) as Record<string, string>,
  enabled: row.enabled === 1,
  createdAt: row.created_at,
  updatedAt: row.updated_at,
});

/**
 * The platform's settings checked: its schema, and for a postback a URL that may be sent to and
 * templates naming only known macros. Answers the settings or the 400's `field: reason`.
 */
export function checkSettings(
  platform: ConversionPlatform,
  settings: Record<string, unknown>,
  mode: 'development' | 'production',
): { ok: true; settings: Sendable['settings'] } | { ok: false; error: string } {
  const parsed = v.safeParse(SETTINGS_SCHEMAS[platform], settings);
  if (!parsed.success) {
    const issue = parsed.issues[0];
    const path = issue.path?.map((item) => String(item.key)).join('.') ?? '';
    return { ok: false, error: `settings${path ? `.${path}` : ''}: ${issue.message}` };
  }
  if (platform === 'postback') {
    const postback = parsed.output as { url: string; body?: string };
    for (const [field, template] of [['url', postback.url] as const, ['body', postback.body ?? ''] as const]) {
      const unknown = unknownMacros(template);
      if (unknown.length > 0) return { ok: false, error: `settings.${field}: no macro named {${unknown[0]}}` };
    }
    // The URL as it would be with its macros filled: its host must be one a delivery may go to.
    const url = checkEndpointUrl(postback.url.replace(/\{[A-Za-z_]+\}/g, 'x'), mode);
    if (!url.ok) return { ok: false, error: `settings.url: ${url.reason}` };
  }
  return { ok: true, settings: parsed.output };
}

/** Whether a destination of `platform` has what it needs to send: its token, where the platform asks one. */
export function tokenProblem(platform: ConversionPlatform, token: string): string | null {
  return NEEDS_TOKEN[platform] && token === '' ? `token: ${platform} needs its access token or API secret` : null;
}

export async function listDestinations(db: D1Database, app: string): Promise<StoredDestination[]> {
  const { results } = await db
    .prepare('SELECT * FROM conversion_destinations WHERE app = ? ORDER BY created_at, id')
    .bind(app)
    .all<Row>();
  return results.map(fromRow);
}

export async function getDestination(db: D1Database, app: string, id: string): Promise<StoredDestination | null> {
  const row = await db
    .prepare('SELECT * FROM conversion_destinations WHERE app = ? AND id = ?')
    .bind(app, id)
    .first<Row>();
  return row ? fromRow(row) : null;
}

/** Every enabled destination of the apps named, by app: one read per batch. */
export async function enabledDestinations(db: D1Database, apps: readonly string[]): Promise<StoredDestination[]> {
  const { results } = await db
    .prepare('SELECT * FROM conversion_destinations WHERE enabled = 1 AND app IN (SELECT value FROM json_each(?))')
    .bind(JSON.stringify(apps))
    .all<Row>();
  return results.map(fromRow);
}

/** Every destination by id, enabled or not (a delivery to a disabled one is a dead letter). */
export async function destinationsById(
  db: D1Database,
  ids: readonly string[],
): Promise<Map<string, StoredDestination>> {
  const { results } = await db
    .prepare('SELECT * FROM conversion_destinations WHERE id IN (SELECT value FROM json_each(?))')
    .bind(JSON.stringify(ids))
    .all<Row>();
  return new Map(results.map((row) => [row.id, fromRow(row)]));
}

export function createStatement(
  db: D1Database,
  app: string,
  input: DestinationCreate & { settings: Sendable['settings'] },
  now: number,
): { statement: D1PreparedStatement; id: string } {
  const id = `cd_${toBase64Url(crypto.getRandomValues(new Uint8Array(16)))}`;
  const statement = db
    .prepare('INSERT INTO conversion_destinations VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?)')
    .bind(
      id,
      app,
      input.platform,
      input.name ?? '',
      JSON.stringify(input.settings),
      input.token ?? '',
      JSON.stringify(input.events ?? {}),
      input.enabled === false ? 0 : 1,
      now,
      now,
    );
  return { statement, id };
}

export function updateStatement(
  db: D1Database,
  before: StoredDestination,
  change: DestinationUpdate & { settings?: Sendable['settings'] },
  now: number,
): D1PreparedStatement {
  return db
    .prepare(
      'UPDATE conversion_destinations SET name = ?, settings = ?, token = ?, events = ?, enabled = ?, updated_at = ? WHERE app = ? AND id = ?',
    )
    .bind(
      change.name ?? before.name,
      JSON.stringify(change.settings ?? before.settings),
      change.token ?? before.token,
      JSON.stringify(change.events ?? before.events),
      (change.enabled ?? before.enabled) ? 1 : 0,
      now,
      before.app,
      before.id,
    );
}

/** The statements removing a destination, its deliveries and its log. */
export function deleteStatements(db: D1Database, destination: StoredDestination): D1PreparedStatement[] {
  return [
    db.prepare('DELETE FROM conversion_destinations WHERE app = ? AND id = ?').bind(destination.app, destination.id),
    db.prepare('DELETE FROM conversion_deliveries WHERE destination_id = ?').bind(destination.id),
    db.prepare('DELETE FROM conversion_attempts WHERE destination_id = ?').bind(destination.id),
  ];
}

/** Delivery counts of each destination of `ids`. */
export async function deliveryCounts(db: D1Database, ids: readonly string[]): Promise<Map<string, ConversionCounts>> {
  const { results } = await db
    .prepare(
      'SELECT destination_id AS id, status, COUNT(*) AS n FROM conversion_deliveries ' +
        'WHERE destination_id IN (SELECT value FROM json_each(?)) GROUP BY destination_id, status',
    )
    .bind(JSON.stringify(ids))
    .all<{ id: string; status: string; n: number }>();
  const counts = new Map<string, ConversionCounts>();
  for (const id of ids) counts.set(id, { pending: 0, delivered: 0, failed: 0, dead: 0 });
  for (const { id, status, n } of results) {
    const of = counts.get(id);
    if (!of) continue;
    if (status === 'sending') of.pending += n;
    else if (status in of) of[status as keyof ConversionCounts] += n;
  }
  return counts;
}

/** A destination as answered: never its token. */
export function destinationView(destination: StoredDestination, counts: ConversionCounts): DestinationView {
  return {
    id: destination.id,
    platform: destination.platform,
    name: destination.name,
    settings: destination.settings as Record<string, unknown>,
    hasToken: destination.token !== '',
    events: { ...destination.events },
    enabled: destination.enabled,
    createdAt: new Date(destination.createdAt).toISOString(),
    updatedAt: new Date(destination.updatedAt).toISOString(),
    counts,
  };
}

/** What the audit log keeps of a destination: everything but its token. */
export const auditedOf = (destination: StoredDestination) => {
  const { token, ...kept } = destination;
  return { ...kept, hasToken: token !== '' };
};
