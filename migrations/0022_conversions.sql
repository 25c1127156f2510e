-- Conversions out (docs/conversions.md): the ad networks an app reports its installs and events to.
-- Nothing here names a person: an install is its keyed hash, an ad click id is never stored here.

-- The operator's destinations. `settings` is the platform's JSON settings (a dataset id, a pixel
-- code, a template); `token` its access token or API secret, kept because each request needs it in
-- clear, and never answered by the API, logged or audited. `events` maps Lander's events to the
-- platform's names (JSON object; absent names use the platform's defaults).
CREATE TABLE conversion_destinations (
  id TEXT PRIMARY KEY,
  app TEXT NOT NULL,
  platform TEXT NOT NULL,
  name TEXT NOT NULL DEFAULT '',
  settings TEXT NOT NULL,
  token TEXT NOT NULL DEFAULT '',
  events TEXT NOT NULL DEFAULT '{}',
  enabled INTEGER NOT NULL DEFAULT 1,
  created_at INTEGER NOT NULL,
  updated_at INTEGER NOT NULL
);
CREATE INDEX conversion_destinations_app ON conversion_destinations (app);

-- An install whose consent allows sends to third parties (docs/privacy.md, "Consent"), by its keyed
-- hash: its later app events may be sent too. An install not here is sent nothing.
CREATE TABLE conversion_installs (
  app TEXT NOT NULL,
  install TEXT NOT NULL,
  platform TEXT NOT NULL,
  at INTEGER NOT NULL,
  PRIMARY KEY (app, install)
) WITHOUT ROWID;
CREATE INDEX conversion_installs_sweep ON conversion_installs (at);

-- One row per destination and event: sent once. 'pending', 'sending' (an attempt holds it until
-- `lease_until`), 'delivered', 'failed' (a final refusal), 'dead' (the queue gave up), 'skipped'.
CREATE TABLE conversion_deliveries (
  destination_id TEXT NOT NULL,
  event_id TEXT NOT NULL,
  name TEXT NOT NULL,
  at INTEGER NOT NULL,
  status TEXT NOT NULL,
  attempts INTEGER NOT NULL DEFAULT 0,
  lease_until INTEGER NOT NULL DEFAULT 0,
  updated_at INTEGER NOT NULL,
  PRIMARY KEY (destination_id, event_id)
) WITHOUT ROWID;
CREATE INDEX conversion_deliveries_sweep ON conversion_deliveries (at);

-- The delivery log: each attempt per destination (the newest 200 are kept).
CREATE TABLE conversion_attempts (
  seq INTEGER PRIMARY KEY AUTOINCREMENT,
  destination_id TEXT NOT NULL,
  event_id TEXT NOT NULL,
  name TEXT NOT NULL,
  attempt INTEGER NOT NULL,
  status INTEGER NOT NULL,
  outcome TEXT NOT NULL,
  latency_ms INTEGER NOT NULL,
  error TEXT NOT NULL DEFAULT '',
  at INTEGER NOT NULL
);
CREATE INDEX conversion_attempts_destination ON conversion_attempts (destination_id, seq);
CREATE INDEX conversion_attempts_sweep ON conversion_attempts (at);
