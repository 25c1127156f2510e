-- The audit log (docs/operators.md#audit-log): one row per accepted operator change, appended in the
-- change's own D1 batch. `seq` counts from 1 with no gap; `hash` is SHA-256 over the RFC 8785
-- canonical JSON of the entry with `prev_hash`, the hash of the entry before (64 zeros for the first),
-- so an altered or removed row breaks the chain (worker/audit/chain.ts). Rows are never changed.
CREATE TABLE audit_entries (
  seq INTEGER PRIMARY KEY,
  at INTEGER NOT NULL,
  actor TEXT NOT NULL,
  via TEXT NOT NULL,
  app TEXT NOT NULL,
  kind TEXT NOT NULL,
  action TEXT NOT NULL,
  target TEXT NOT NULL,
  before TEXT NOT NULL,
  after TEXT NOT NULL,
  prev_hash TEXT NOT NULL,
  hash TEXT NOT NULL
);
CREATE INDEX audit_entries_kind ON audit_entries (kind, seq);
CREATE INDEX audit_entries_target ON audit_entries (target, seq);
