-- Test devices' answers (docs/attribution.md, "Test devices"): the console's Test installs panel.
-- Never counted in the funnel. Kept 7 days and at most 500 rows (worker/attribution/test-answers.ts).
-- `device` is a keyed hash of (app, installId): a test device is recognisable, never named.
CREATE TABLE test_answers (
  id INTEGER PRIMARY KEY AUTOINCREMENT,
  at INTEGER NOT NULL,
  kind TEXT NOT NULL,
  app TEXT NOT NULL,
  platform TEXT NOT NULL,
  device TEXT NOT NULL,
  answer TEXT NOT NULL,
  explanation TEXT NOT NULL,
  repeat INTEGER NOT NULL
);
CREATE INDEX test_answers_at ON test_answers (at);
