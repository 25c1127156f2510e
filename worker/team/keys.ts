/**
 * Making, listing and revoking an app's API keys (docs/operators.md#api-keys). Each change is committed
 * with its audit entry (kind `key`), which holds the key's view, never its secret nor its hash.
 */
import type { KeyView } from '../../shared/team.ts';
import type { CommitChange } from '../facts.ts';
import { KEY_COLUMNS, keyHash, keyOfRow, mintKey, type StoredKey } from '../sign-in/api-keys.ts';

const iso = (ms: number | null): string | null => (ms === null ? null : new Date(ms).toISOString());

/** A key as the API lists it. */
export function keyView(key: StoredKey): KeyView {
  return {
    id: key.id,
    name: key.name,
    scopes: key.scopes,
    rateLimit: key.rate,
    expiresAt: iso(key.expiresAt),
    revokedAt: iso(key.revokedAt),
    createdBy: key.createdBy,
    createdAt: new Date(key.createdAt).toISOString(),
  };
}

/** What a new key is made of, checked. */
export interface NewKeyParts {
  app: string;
  name: string;
  scopes: StoredKey['scopes'];
  rate: number;
  expiresAt: number | null;
  createdBy: string;
}

/** Makes and stores a key: answers it with the secret, which is never kept. */
export async function createKey(
  db: D1Database,
  parts: NewKeyParts,
  commit: CommitChange,
): Promise<{ stored: StoredKey; key: string }> {
  const { key, id } = mintKey(parts.app);
  const stored: StoredKey = { id, ...parts, revokedAt: null, createdAt: Date.now() };
  const insert = db
    .prepare(
      'INSERT INTO api_keys (id, app, name, hash, scopes, rate, expires_at, revoked_at, created_by, created_at) ' +
        'VALUES (?, ?, ?, ?, ?, ?, ?, NULL, ?, ?)',
    )
    .bind(
      id,
      stored.app,
      stored.name,
      await keyHash(key),
      JSON.stringify(stored.scopes),
      stored.rate,
      stored.expiresAt,
      stored.createdBy,
      stored.createdAt,
    );
  await commit([insert], { kind: 'key', action: 'created', target: id, before: null, after: keyView(stored) });
  return { stored, key };
}

/** The app's key `id`, or null (another app's key is none of this app's). */
export async function keyOf(db: D1Database, app: string, id: string): Promise<StoredKey | null> {
  const row = await db
    .prepare(`SELECT ${KEY_COLUMNS} FROM api_keys WHERE app = ? AND id = ?`)
    .bind(app, id)
    .first<Parameters<typeof keyOfRow>[0]>();
  return row ? keyOfRow(row) : null;
}

/** Revokes `key` from now on; false when it was revoked meanwhile. */
export async function revokeKey(db: D1Database, key: StoredKey, commit: CommitChange): Promise<boolean> {
  const revoked = { ...key, revokedAt: Date.now() };
  const update = db
    .prepare('UPDATE api_keys SET revoked_at = ? WHERE app = ? AND id = ? AND revoked_at IS NULL')
    .bind(revoked.revokedAt, key.app, key.id);
  const [result] = await commit([update], {
    kind: 'key',
    action: 'deleted',
    target: key.id,
    before: keyView(key),
    after: keyView(revoked),
  });
  return (result?.meta.changes ?? 0) > 0;
}
