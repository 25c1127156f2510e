-- Erasure and access requests (docs/privacy.md#requests-erasure-and-access), in the shape of the
-- OpenDSR specification. Nothing here names a person: a request keeps the keyed hashes its subject
-- is stored under (`subject_keys`, JSON; the same hashes the stores hold, never the raw id), and
-- drops them once an erasure is done, keeping only their SHA-256 digest (`subject_digest`), which the
-- signed receipt names. `callback_secret` signs the status callbacks (Standard Webhooks).
CREATE TABLE privacy_requests (
  app TEXT NOT NULL,
  id TEXT NOT NULL,
  type TEXT NOT NULL,
  identity_type TEXT NOT NULL,
  subject_keys TEXT,
  subject_digest TEXT NOT NULL,
  status TEXT NOT NULL,
  submitted_at INTEGER NOT NULL,
  received_at INTEGER NOT NULL,
  expected_at INTEGER NOT NULL,
  completed_at INTEGER,
  callback_urls TEXT NOT NULL,
  callback_secret TEXT,
  actor TEXT NOT NULL,
  receipt TEXT,
  PRIMARY KEY (app, id)
) WITHOUT ROWID;
CREATE INDEX privacy_requests_received ON privacy_requests (app, received_at);
CREATE INDEX privacy_requests_status ON privacy_requests (status, received_at);

-- Subjects erased, by the SHA-256 of the keyed hashes webhook messages carry (an install's `data.install`, an
-- install event's id): a message queued or dead-lettered before the erasure and consumed after it is
-- dropped, never recorded or sent. Kept 14 days, longer than a message stays in a queue.
CREATE TABLE webhook_erased (
  app TEXT NOT NULL,
  hash TEXT NOT NULL,
  until INTEGER NOT NULL,
  PRIMARY KEY (app, hash)
) WITHOUT ROWID;
