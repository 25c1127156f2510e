/**
 * The audit log's filters by actor and by time read an index (migrations/0013_audit_indexes.sql):
 * D1's own planner, asked with EXPLAIN QUERY PLAN about the very SQL `GET /api/audit` runs
 * (worker/audit/entries.ts `pageQuery`), searches by them and never scans the table.
 */
import { env } from 'cloudflare:workers';
import { describe, expect, it } from 'vitest';
import type { AuditQuery } from '../../../worker/audit/contract.ts';
import { pageQuery } from '../../../worker/audit/entries.ts';

/** The plan's detail lines for the page `query` of the app `default`. */
async function planOf(query: Partial<AuditQuery>): Promise<string> {
  const { sql, values } = pageQuery('default', { limit: 50, ...query });
  const { results } = await env.FUNNEL_DB.prepare(`EXPLAIN QUERY PLAN ${sql}`)
    .bind(...values)
    .all<{ detail: string }>();
  return results.map((row) => row.detail).join('\n');
}

const DAY = 86_400_000;

describe('the audit log filters by an index', () => {
  it('by actor: searches audit_entries_actor (app, actor, seq), newest first without sorting', async () => {
    const plan = await planOf({ actor: 'ana@example.com' });
    expect(plan).toMatch(/SEARCH audit_entries USING INDEX audit_entries_actor \(app=\? AND actor=\?\)/);
    expect(plan).not.toMatch(/TEMP B-TREE|SCAN/);
  });

  it('by time, from and to or from alone: searches audit_entries_at (app, at) over the span', async () => {
    const from = Date.parse('2026-11-01T00:00:00Z');
    expect(await planOf({ from, to: from + DAY })).toMatch(
      /SEARCH audit_entries USING INDEX audit_entries_at \(app=\? AND at>\? AND at<\?\)/,
    );
    expect(await planOf({ from })).toMatch(/SEARCH audit_entries USING INDEX audit_entries_at \(app=\? AND at>\?\)/);
    expect(await planOf({ from, to: from + DAY })).not.toMatch(/SCAN/);
  });

  it('by actor within a time: still an index, never a scan of the table', async () => {
    const from = Date.parse('2026-11-01T00:00:00Z');
    const plan = await planOf({ actor: 'ana@example.com', from, to: from + DAY });
    expect(plan).toMatch(/USING INDEX audit_entries_(actor|at)/);
    expect(plan).not.toMatch(/SCAN/);
  });

  it('the migration made both indexes on audit_entries', async () => {
    const { results } = await env.FUNNEL_DB.prepare(
      "SELECT name FROM sqlite_master WHERE type = 'index' AND tbl_name = 'audit_entries' ORDER BY name",
    ).all<{ name: string }>();
    expect(results.map((row) => row.name)).toEqual(expect.arrayContaining(['audit_entries_actor', 'audit_entries_at']));
  });
});
