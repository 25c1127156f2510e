/**
 * Self-referral (docs/fraud.md): an install credited to inviter I from a device I used. The campaign's
 * `inviter` names I by the app's own user id; `identify(userId)` tells which user is signed in on an
 * install. An install is "I's device" when its install id was identified as I, or when the visitor id
 * of its click was the visitor id of a click whose install was identified as I. Only keyed hashes of
 * user ids and visitor ids are kept (the attribution salt).
 */

import type { Flag } from '../facts.ts';
import { keyedHash } from '../lib/keyed-hash.ts';

/** The keyed hash of an app user id, as an inviter or as identified. */
export const userHash = (salt: string, userId: string): Promise<string> => keyedHash(salt, `user\n${userId}`);

/** What an install is checked by: its key, the visitor hash of its click ('' without one). */
export interface DeviceKeys {
  install: string;
  visitor: string;
}

const USED =
  `SELECT kind FROM fraud_identities WHERE app = ?4 AND user = ?1 AND ((kind = 'install' AND value = ?2) ` +
  `OR (kind = 'visitor' AND value = ?3 AND ?3 != '')) ORDER BY kind LIMIT 1`;

/** The self-referral flag of an install credited to `inviter`, if the inviter used its device. */
export async function selfReferral(
  db: D1Database,
  app: string,
  salt: string,
  inviter: string,
  device: DeviceKeys,
): Promise<Flag | null> {
  if (!inviter) return null;
  const row = await db
    .prepare(USED)
    .bind(await userHash(salt, inviter), device.install, device.visitor, app)
    .first<{ kind: string }>();
  if (!row) return null;
  const what = row.kind === 'install' ? 'this install was signed in as' : "this click's visitor id was used by";
  return { rule: 'self_referral', reason: `${what} the inviter` };
}

const REMEMBER = 'INSERT OR IGNORE INTO fraud_identities (user, kind, value, at, app) VALUES (?1, ?2, ?3, ?4, ?5)';

/** Remembers that `userId` used the install `device.install` (and its click's visitor id). */
export async function rememberUse(
  db: D1Database,
  app: string,
  salt: string,
  userId: string,
  device: DeviceKeys,
  now: number,
): Promise<void> {
  const user = await userHash(salt, userId);
  const writes = [db.prepare(REMEMBER).bind(user, 'install', device.install, now, app)];
  if (device.visitor) writes.push(db.prepare(REMEMBER).bind(user, 'visitor', device.visitor, now, app));
  await db.batch(writes);
}

const IDENTIFIED =
  "SELECT 1 AS yes FROM fraud_identities WHERE app = ?1 AND user = ?2 AND kind = 'install' AND value = ?3";

/**
 * Whether `identify(userId)` named `userId` on the install keyed `install`: the keyed hashes compared,
 * so an app's invite link names only the user signed in on it (docs/campaign-links.md#invite-links-from-the-app).
 */
export async function identifiedAs(
  db: D1Database,
  app: string,
  salt: string,
  userId: string,
  install: string,
): Promise<boolean> {
  const row = await db
    .prepare(IDENTIFIED)
    .bind(app, await userHash(salt, userId), install)
    .first();
  return row !== null;
}
