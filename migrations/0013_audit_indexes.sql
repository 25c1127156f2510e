-- Filtering the audit log by who and by when (docs/operators.md#audit-log): `GET /api/audit?actor=`
-- and `?from=`/`?to=` read one app's entries (worker/audit/entries.ts), so both indexes lead with
-- the app. By actor, newest first, the index is walked in seq order; by time, only the span's rows
-- are read. tests/worker/audit/audit-indexes.test.ts holds the planner to them.
CREATE INDEX audit_entries_actor ON audit_entries (app, actor, seq);
CREATE INDEX audit_entries_at ON audit_entries (app, at);
