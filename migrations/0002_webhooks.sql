-- Webhooks and daily exports (docs/webhooks.md). Nothing here names a person: events carry keyed
-- hashes in place of install ids, and no address or agent.

-- The operator's endpoints. `secret` is the Standard Webhooks signing secret (`whsec_<base64>`), kept
-- here because signing needs it; the API shows it only when it is made. `events` is a JSON array of
-- event types. `failing_since` is the time of the first failed attempt since the last success: three
-- days of nothing but failures disables the endpoint (`disabled_reason` = 'failing').
CREATE TABLE webhook_endpoints (
  id TEXT PRIMARY KEY,
  url TEXT NOT NULL,
  description TEXT NOT NULL DEFAULT '',
  events TEXT NOT NULL,
  secret TEXT NOT NULL,
  enabled INTEGER NOT NULL DEFAULT 1,
  disabled_reason TEXT,
  failing_since INTEGER,
  created_at INTEGER NOT NULL,
  updated_at INTEGER NOT NULL
);

-- Every event, as its webhook body, kept 30 days for the daily export and for resending.
-- `kind` is the export's partition: install, open, event, click or link.
CREATE TABLE webhook_events (
  id TEXT PRIMARY KEY,
  kind TEXT NOT NULL,
  type TEXT NOT NULL,
  day TEXT NOT NULL,
  at INTEGER NOT NULL,
  body TEXT NOT NULL
);
CREATE INDEX webhook_events_day ON webhook_events (day, kind, at);

-- One row per event and endpoint: where its delivery stands ('pending', 'delivered', 'failed' for a
-- final refusal, 'dead' once the queue gave up on it).
CREATE TABLE webhook_deliveries (
  endpoint_id TEXT NOT NULL,
  event_id TEXT NOT NULL,
  type TEXT NOT NULL,
  at INTEGER NOT NULL,
  status TEXT NOT NULL,
  attempts INTEGER NOT NULL DEFAULT 0,
  updated_at INTEGER NOT NULL,
  PRIMARY KEY (endpoint_id, event_id)
) WITHOUT ROWID;
CREATE INDEX webhook_deliveries_at ON webhook_deliveries (endpoint_id, at);
CREATE INDEX webhook_deliveries_status ON webhook_deliveries (endpoint_id, status);

-- The delivery log: the last attempts per endpoint (the consumer keeps the newest 200).
CREATE TABLE webhook_attempts (
  seq INTEGER PRIMARY KEY AUTOINCREMENT,
  endpoint_id TEXT NOT NULL,
  event_id TEXT NOT NULL,
  type TEXT NOT NULL,
  attempt INTEGER NOT NULL,
  at INTEGER NOT NULL,
  status INTEGER NOT NULL,
  latency_ms INTEGER NOT NULL,
  error TEXT NOT NULL DEFAULT '',
  -- Seconds until the next attempt, null when none follows.
  retry_in INTEGER
);
CREATE INDEX webhook_attempts_endpoint ON webhook_attempts (endpoint_id, seq);
