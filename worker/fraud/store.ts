/**
 * The fraud tables in D1 (migrations/0004_fraud.sql, docs/fraud.md): an install's row, its flags and
 * who used what. Every write is idempotent (`INSERT OR IGNORE`), so a retried install or identify and
 * a late flag arriving before its install's row all come out the same.
 */

import { DAY_MS, utcDay } from '../../shared/time-zone.ts';
import type { Dimensions, Flag } from '../facts.ts';
import { DIMENSION_COLUMNS } from '../funnel/rollup.ts';

/** An install as the fraud tables keep it: keyed hashes only. */
export interface FraudInstall {
  /** The ledger key (resolve-install.ts `installKey`). */
  id: string;
  at: number;
  dims: Dimensions;
  /** `referrer`, `probabilistic`, … or `unmatched:<reason>`. */
  method: string;
  /** The keyed hash of the install's network (its bucket), `''` without one. */
  network: string;
  /** The keyed hash of the matched click's visitor id, `''` without one. */
  visitor: string;
}

const COLUMNS = DIMENSION_COLUMNS.map(([, column]) => column);
const ADD_INSTALL =
  `INSERT OR IGNORE INTO fraud_installs (app, id, at, day, ${COLUMNS.join(', ')}, method, network, visitor) ` +
  `VALUES (${Array.from({ length: COLUMNS.length + 7 }, (_, at) => `?${at + 1}`).join(', ')})`;
const ADD_FLAG = 'INSERT OR IGNORE INTO fraud_flags (install, rule, reason, at, app) VALUES (?1, ?2, ?3, ?4, ?5)';

/** The statements that keep `flags` on the install `id`. */
const flagStatements = (db: D1Database, app: string, id: string, flags: readonly Flag[], now: number) =>
  flags.map((flag) => db.prepare(ADD_FLAG).bind(id, flag.rule, flag.reason, now, app));

/** Keeps an install's row and its flags. */
export async function keepInstall(
  db: D1Database,
  app: string,
  install: FraudInstall,
  flags: readonly Flag[],
): Promise<void> {
  const dims = DIMENSION_COLUMNS.map(([name]) => install.dims[name]);
  await db.batch([
    db
      .prepare(ADD_INSTALL)
      .bind(app, install.id, install.at, utcDay(install.at), ...dims, install.method, install.network, install.visitor),
    ...flagStatements(db, app, install.id, flags, install.at),
  ]);
}

/** Keeps flags raised on an install after it was answered (a late self-referral). */
export async function keepFlags(
  db: D1Database,
  app: string,
  id: string,
  flags: readonly Flag[],
  now: number,
): Promise<void> {
  if (flags.length > 0) await db.batch(flagStatements(db, app, id, flags, now));
}

/**
 * Forgets fraud rows — installs, flags, identities — older than `days` before `now` (the daily Cron
 * run; `RETENTION.fraud`, 90 days by default, docs/privacy.md#retention).
 */
export async function forgetFraud(db: D1Database, now: number, days: number): Promise<void> {
  const cutoff = now - days * DAY_MS;
  await db.batch([
    db.prepare('DELETE FROM fraud_installs WHERE at < ?1').bind(cutoff),
    db.prepare('DELETE FROM fraud_flags WHERE at < ?1').bind(cutoff),
    db.prepare('DELETE FROM fraud_identities WHERE at < ?1').bind(cutoff),
  ]);
}
