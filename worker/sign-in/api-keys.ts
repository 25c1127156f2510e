/**
 * API keys (docs/operators.md#api-keys): `lk_<app>_<43 characters>`, 256 random bits, shown once
 * when made and kept only as the SHA-256 of the whole key in D1 `api_keys`
 * (migrations/0012_team.sql). A key's bits are random, so a plain hash is as strong as a keyed one
 * and a leaked table gives no key back. A bearer that starts `lk_` is looked up here.
 */
import { toBase64Url } from '../../shared/base64url.ts';
import { isScope, type Scope } from '../../shared/roles.ts';

/** Every key starts with this, so a bearer is known as a key before any look-up. */
export const KEY_PREFIX = 'lk_';

/** A key as stored, without its hash. */
export interface StoredKey {
  id: string;
  app: string;
  name: string;
  scopes: Scope[];
  /** Calls per minute. */
  rate: number;
  expiresAt: number | null;
  revokedAt: number | null;
  createdBy: string;
  createdAt: number;
}

interface KeyRow {
  id: string;
  app: string;
  name: string;
  scopes: string;
  rate: number;
  expires_at: number | null;
  revoked_at: number | null;
  created_by: string;
  created_at: number;
}

/** The columns a key is read with. */
export const KEY_COLUMNS = 'id, app, name, scopes, rate, expires_at, revoked_at, created_by, created_at';

/** A stored row as a key; a scope the table no longer names is dropped, never granted. */
export function keyOfRow(row: KeyRow): StoredKey {
  const scopes: unknown = JSON.parse(row.scopes);
  return {
    id: row.id,
    app: row.app,
    name: row.name,
    scopes: Array.isArray(scopes) ? scopes.filter((scope): scope is Scope => isScope(String(scope))) : [],
    rate: row.rate,
    expiresAt: row.expires_at,
    revokedAt: row.revoked_at,
    createdBy: row.created_by,
    createdAt: row.created_at,
  };
}

const encoder = new TextEncoder();

/** The hex SHA-256 of `key`: the only form a key is kept in. */
export async function keyHash(key: string): Promise<string> {
  const digest = new Uint8Array(await crypto.subtle.digest('SHA-256', encoder.encode(key)));
  return Array.from(digest, (byte) => byte.toString(16).padStart(2, '0')).join('');
}

/** A new key of `app` and its id: 256 random bits, and 72 more for the id. */
export function mintKey(app: string): { key: string; id: string } {
  const secret = crypto.getRandomValues(new Uint8Array(32));
  const id = crypto.getRandomValues(new Uint8Array(9));
  return { key: `${KEY_PREFIX}${app}_${toBase64Url(secret)}`, id: toBase64Url(id) };
}

/** The stored key whose hash is `key`'s, or null for a key never made. */
export async function findKey(db: D1Database, key: string): Promise<StoredKey | null> {
  const row = await db
    .prepare(`SELECT ${KEY_COLUMNS} FROM api_keys WHERE hash = ?`)
    .bind(await keyHash(key))
    .first<KeyRow>();
  return row ? keyOfRow(row) : null;
}

/** The app's keys, newest first. */
export async function listKeys(db: D1Database, app: string): Promise<StoredKey[]> {
  const { results } = await db
    .prepare(`SELECT ${KEY_COLUMNS} FROM api_keys WHERE app = ? ORDER BY created_at DESC, id`)
    .bind(app)
    .all<KeyRow>();
  return results.map(keyOfRow);
}
