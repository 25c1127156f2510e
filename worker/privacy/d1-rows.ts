/**
 * A subject's rows in D1 (docs/privacy.md#requests-erasure-and-access), table by table: every table
 * that keeps one of its keyed hashes, found by the column that holds it and within its app only.
 * The webhooks' tables are the webhooks wing's own (webhooks/erased.ts).
 */
import type { SubjectKeys } from './subject.ts';

/**
 * `?1` the app; `?2` install keys, `?3` test devices, `?4` visitors, `?5` users, `?6` funnel message
 * ids, `?7` the installs' webhook hashes, `?8` the slugs of the app's invite links for the user (JSON arrays).
 */
const IN = (at: number) => `IN (SELECT value FROM json_each(?${at}))`;

/** Each table with the subject's rows, and how they are found. */
export const D1_SUBJECT_TABLES: Record<string, string> = {
  fraud_installs: `app = ?1 AND (id ${IN(2)} OR visitor ${IN(4)})`,
  fraud_flags: `app = ?1 AND install ${IN(2)}`,
  fraud_identities: `app = ?1 AND ((kind = 'install' AND value ${IN(2)}) OR (kind = 'visitor' AND value ${IN(4)}) OR user ${IN(5)})`,
  cohort_installs: `app = ?1 AND install ${IN(2)}`,
  funnel_install_days: `app = ?1 AND install ${IN(2)}`,
  funnel_messages: `app = ?1 AND id ${IN(6)}`,
  test_answers: `app = ?1 AND device ${IN(3)}`,
  test_devices: `app = ?1 AND device ${IN(3)}`,
  // Conversions out (docs/conversions.md): an install allowed to be sent, by its webhooks' hash; an
  // install's delivery and log rows, by its key (its conversion event's id), in the app's destinations.
  conversion_installs: `app = ?1 AND install ${IN(7)}`,
  conversion_deliveries: `event_id ${IN(2)} AND destination_id IN (SELECT id FROM conversion_destinations WHERE app = ?1)`,
  conversion_attempts: `event_id ${IN(2)} AND destination_id IN (SELECT id FROM conversion_destinations WHERE app = ?1)`,
  // The invite links the app made for a user (attribution/app-links.ts): their inviter is the user id.
  funnel_links: `app = ?1 AND source = 'app' AND slug ${IN(8)}`,
};

/** The funnel's message id of an install (funnel/count-facts.ts `installMessageId`). */
const installMessageId = (key: string): string => `install:${key}`;

function bindings(app: string, keys: SubjectKeys): string[] {
  return [
    app,
    JSON.stringify(keys.installs),
    JSON.stringify(keys.testDevices),
    JSON.stringify(keys.visitors),
    JSON.stringify(keys.users),
    JSON.stringify(keys.installs.map(installMessageId)),
    JSON.stringify(keys.webhookInstalls),
    JSON.stringify(keys.links ?? []),
  ];
}

/** The subject's D1 rows by table (tables without any left out); `erase` deletes them in one batch. */
export async function d1SubjectRows(
  db: D1Database,
  app: string,
  keys: SubjectKeys,
  erase: boolean,
): Promise<Record<string, Record<string, unknown>[]>> {
  const all = bindings(app, keys);
  // D1 takes as many values as the highest `?N` a statement names, no more.
  const argsOf = (where: string) =>
    all.slice(0, Math.max(...[...where.matchAll(/\?(\d)/g)].map((at) => Number(at[1]))));
  const tables = Object.entries(D1_SUBJECT_TABLES);
  const read = await db.batch<Record<string, unknown>>(
    tables.map(([table, where]) => db.prepare(`SELECT * FROM ${table} WHERE ${where}`).bind(...argsOf(where))),
  );
  const rows: Record<string, Record<string, unknown>[]> = {};
  tables.forEach(([table], at) => {
    const found = read[at]?.results ?? [];
    if (found.length > 0) rows[table] = found;
  });
  if (erase && Object.keys(rows).length > 0) {
    await db.batch(
      tables.map(([table, where]) => db.prepare(`DELETE FROM ${table} WHERE ${where}`).bind(...argsOf(where))),
    );
  }
  return rows;
}
