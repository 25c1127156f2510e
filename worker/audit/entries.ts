/**
 * Reading the audit log (docs/operators.md#audit-log): a filtered page of entries, newest first, and
 * every entry in order for the export — each as the chain hashes it (chain.ts).
 */
import type { AuditEntry } from './chain.ts';
import type { AuditQuery } from './contract.ts';

interface EntryRow {
  seq: number;
  at: number;
  actor: string;
  via: string;
  app: string;
  kind: string;
  action: string;
  target: string;
  before: string;
  after: string;
  prev_hash: string;
  hash: string;
}

/** The entry a row holds; its before and after read back from their JSON. */
function entryOf(row: EntryRow): AuditEntry {
  const { seq, at, actor, via, app, kind, action, target, hash } = row;
  const before: unknown = JSON.parse(row.before);
  const after: unknown = JSON.parse(row.after);
  return { seq, at, actor, via, app, kind, action, target, before, after, prevHash: row.prev_hash, hash };
}

/**
 * The SQL of the page `query` asks for and its values; the planner's use of the indexes on it is
 * tested (migrations/0013_audit_indexes.sql).
 */
export function pageQuery(app: string, query: AuditQuery): { sql: string; values: (string | number)[] } {
  const where: string[] = [];
  const values: (string | number)[] = [];
  const add = (clause: string, value: string | number | undefined) => {
    if (value === undefined) return;
    values.push(value);
    where.push(`${clause} ?${values.length}`);
  };
  // The chain is the deployment's; the page is the app's own entries (docs/routes.md#apps).
  add('app =', app);
  add('kind =', query.kind);
  add('actor =', query.actor);
  add('target =', query.target);
  add('at >=', query.from);
  add('at <', query.to);
  add('seq <', query.before);
  values.push(query.limit);
  const sql = `SELECT * FROM audit_entries ${where.length ? `WHERE ${where.join(' AND ')}` : ''} ORDER BY seq DESC LIMIT ?${values.length}`;
  return { sql, values };
}

/** The page `query` asks for, and the `before` of the next page (null when this one is the last). */
export async function auditPage(
  db: D1Database,
  app: string,
  query: AuditQuery,
): Promise<{ entries: AuditEntry[]; next: number | null }> {
  const { sql, values } = pageQuery(app, query);
  const { results } = await db
    .prepare(sql)
    .bind(...values)
    .all<EntryRow>();
  const entries = results.map(entryOf);
  const last = entries.at(-1);
  return { entries, next: entries.length === query.limit && last ? last.seq : null };
}

/** Entries read per D1 query of the export. */
const EXPORT_PAGE = 500;

/**
 * The most entries one export answer holds: 200 D1 queries, well inside a request's limit, and a
 * download an operator can resume. A longer log is exported in parts (`Link: rel="next"`).
 */
export const EXPORT_SPAN = 100_000;

/** The newest entry's seq, 0 when the log is empty. */
export async function lastSeq(db: D1Database): Promise<number> {
  const row = await db.prepare('SELECT MAX(seq) AS seq FROM audit_entries').first<{ seq: number | null }>();
  return row?.seq ?? 0;
}

/** The entries of seq `after` + 1 to `until`, in order, read `EXPORT_PAGE` at a time. */
export async function* allEntries(
  db: D1Database,
  after = 0,
  until = Number.MAX_SAFE_INTEGER,
): AsyncGenerator<AuditEntry> {
  for (let from = after; ; ) {
    const { results } = await db
      .prepare('SELECT * FROM audit_entries WHERE seq > ?1 AND seq <= ?2 ORDER BY seq LIMIT ?3')
      .bind(from, until, EXPORT_PAGE)
      .all<EntryRow>();
    for (const row of results) yield entryOf(row);
    const last = results.at(-1);
    if (!last || results.length < EXPORT_PAGE) return;
    from = last.seq;
  }
}
