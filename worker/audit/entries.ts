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

/** The page `query` asks for, and the `before` of the next page (null when this one is the last). */
export async function auditPage(
  db: D1Database,
  query: AuditQuery,
): Promise<{ entries: AuditEntry[]; next: number | null }> {
  const where: string[] = [];
  const values: (string | number)[] = [];
  const add = (clause: string, value: string | number | undefined) => {
    if (value === undefined) return;
    values.push(value);
    where.push(`${clause} ?${values.length}`);
  };
  add('kind =', query.kind);
  add('actor =', query.actor);
  add('target =', query.target);
  add('at >=', query.from);
  add('at <', query.to);
  add('seq <', query.before);
  values.push(query.limit);
  const sql = `SELECT * FROM audit_entries ${where.length ? `WHERE ${where.join(' AND ')}` : ''} ORDER BY seq DESC LIMIT ?${values.length}`;
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

/** Every entry from the first, in order, read `EXPORT_PAGE` at a time. */
export async function* allEntries(db: D1Database): AsyncGenerator<AuditEntry> {
  for (let after = 0; ; ) {
    const { results } = await db
      .prepare('SELECT * FROM audit_entries WHERE seq > ?1 ORDER BY seq LIMIT ?2')
      .bind(after, EXPORT_PAGE)
      .all<EntryRow>();
    for (const row of results) yield entryOf(row);
    const last = results.at(-1);
    if (!last || results.length < EXPORT_PAGE) return;
    after = last.seq;
  }
}
