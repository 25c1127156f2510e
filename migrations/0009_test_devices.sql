-- Registered test devices (docs/attribution.md, "Test devices"): only a call with `test: true` from
-- one of these gets a test answer and its explanation. `device` is the keyed hash of (app, installId)
-- that test_answers names devices by: the install id is never stored.
CREATE TABLE test_devices (
  id INTEGER PRIMARY KEY AUTOINCREMENT,
  app TEXT NOT NULL,
  device TEXT NOT NULL UNIQUE,
  label TEXT NOT NULL,
  created_at INTEGER NOT NULL
);
