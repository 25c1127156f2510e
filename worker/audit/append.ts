/**
 * Appending to the audit log (docs/operators.md#audit-log) in the change's own D1 batch: the head is
 * read, the next entry hashed onto it, and the change's statements and the entry's insert run as one
 * transaction. The insert stands right after the change's first statement and adds its row only when
 * that statement changed one (SQLite's `changes()`), so a write the store refuses appends nothing.
 * Two changes at once read the same head; the second's `seq` is then taken, its whole batch rolls
 * back (its change too), and it is tried again on the new head.
 */
import type { OperatorChange } from '../facts.ts';
import { type AuditEntry, entryHash, GENESIS } from './chain.ts';

/** Tries of one change against changes committed at the same moment. */
const TRIES = 8;

const INSERT_ENTRY =
  'INSERT INTO audit_entries (seq, at, actor, via, app, kind, action, target, before, after, prev_hash, hash) ' +
  'SELECT ?1, ?2, ?3, ?4, ?5, ?6, ?7, ?8, ?9, ?10, ?11, ?12';
/** The entry of a change made in D1: added only when the change's statement just before it changed a row. */
const AFTER_CHANGE = ' WHERE changes() > 0';

/** The last entry's seq and hash; seq 0 and the genesis hash before the first. */
export async function headOf(db: D1Database): Promise<{ seq: number; hash: string }> {
  const row = await db
    .prepare('SELECT seq, hash FROM audit_entries ORDER BY seq DESC LIMIT 1')
    .first<{ seq: number; hash: string }>();
  return row ?? { seq: 0, hash: GENESIS };
}

/** The entry `change` becomes on top of `head`. */
async function nextEntry(change: OperatorChange, head: { seq: number; hash: string }): Promise<AuditEntry> {
  const { at, actor, via, app, kind, action, target } = change;
  // Stored as JSON text and hashed as what that text reads back as: `undefined` is kept as null.
  const before = change.before ?? null;
  const after = change.after ?? null;
  const entry = { seq: head.seq + 1, at, actor, via, app, kind, action, target, before, after, prevHash: head.hash };
  return { ...entry, hash: await entryHash(entry) };
}

function insertOf(db: D1Database, entry: AuditEntry, sql = INSERT_ENTRY + AFTER_CHANGE): D1PreparedStatement {
  const { seq, at, actor, via, app, kind, action, target, before, after, prevHash, hash } = entry;
  return db
    .prepare(sql)
    .bind(
      seq,
      at,
      actor,
      via,
      app,
      kind,
      action,
      target,
      JSON.stringify(before),
      JSON.stringify(after),
      prevHash,
      hash,
    );
}

/** Whether `error` is another change having taken the seq this one was hashed for. */
const seqTaken = (error: unknown): boolean =>
  error instanceof Error && /UNIQUE constraint failed: audit_entries\.seq/.test(error.message);

/**
 * Runs `statements` with `change`'s audit entry in one batch (see the file's comment); answers the
 * statements' results in their order. Throws when D1 does, or when the head kept moving for `TRIES`.
 */
export async function commitWithEntry(
  db: D1Database,
  change: OperatorChange,
  statements: D1PreparedStatement[],
): Promise<D1Result[]> {
  const [first, ...rest] = statements;
  if (!first) throw new Error('a change has at least one statement');
  for (let attempt = 1; ; attempt += 1) {
    const entry = await nextEntry(change, await headOf(db));
    try {
      const [firstResult, _entry, ...restResults] = await db.batch([first, insertOf(db, entry), ...rest]);
      return [firstResult, ...restResults].filter((result): result is D1Result => result !== undefined);
    } catch (error) {
      if (!seqTaken(error) || attempt >= TRIES) throw error;
    }
  }
}

/**
 * Appends `change`'s entry alone, for a change kept outside D1 (the configuration, in KV): its
 * caller writes it only once the other store accepted the change (worker/config/routes.ts). Retried
 * on a taken seq as `commitWithEntry` is. Throws when D1 does.
 */
export async function appendEntry(db: D1Database, change: OperatorChange): Promise<AuditEntry> {
  for (let attempt = 1; ; attempt += 1) {
    const entry = await nextEntry(change, await headOf(db));
    try {
      await insertOf(db, entry, INSERT_ENTRY).run();
      return entry;
    } catch (error) {
      if (!seqTaken(error) || attempt >= TRIES) throw error;
    }
  }
}
