-- Fraud flags (docs/fraud.md): one row per counted install with what its rules look at, and one row
-- per flag a rule raised on it. Nothing names a person: `id` is the ledger's keyed hash of
-- (app, installId), `network` and `visitor` are keyed hashes (the attribution salt). A flag marks an
-- install; it never removes one. Kept 90 days (worker/fraud/forget.ts).
CREATE TABLE fraud_installs (
  id TEXT PRIMARY KEY,
  at INTEGER NOT NULL,
  day TEXT NOT NULL,
  channel TEXT NOT NULL,
  inviter TEXT NOT NULL,
  link TEXT NOT NULL,
  os TEXT NOT NULL,
  inapp TEXT NOT NULL,
  country TEXT NOT NULL,
  lang TEXT NOT NULL,
  plain_channel TEXT NOT NULL,
  plain_inviter TEXT NOT NULL,
  -- 'referrer', 'probabilistic', … or 'unmatched:<reason>' (the funnel's install metric without 'install:').
  method TEXT NOT NULL,
  network TEXT NOT NULL,
  visitor TEXT NOT NULL
) WITHOUT ROWID;
CREATE INDEX fraud_installs_day ON fraud_installs (day, inviter, channel);

-- A rule's flag on an install, with its reason (a sentence of numbers, never an identifier).
-- Written apart from fraud_installs: a late flag (an identify after the install) and the install's
-- own row may arrive in either order.
CREATE TABLE fraud_flags (
  install TEXT NOT NULL,
  rule TEXT NOT NULL,
  reason TEXT NOT NULL,
  at INTEGER NOT NULL,
  PRIMARY KEY (install, rule)
) WITHOUT ROWID;

-- Who used what: a keyed hash of an app's user id (identify) beside the keyed hash of an install
-- (kind 'install') or of the visitor id of the click that install was matched to (kind 'visitor').
CREATE TABLE fraud_identities (
  user TEXT NOT NULL,
  kind TEXT NOT NULL,
  value TEXT NOT NULL,
  at INTEGER NOT NULL,
  PRIMARY KEY (user, kind, value)
) WITHOUT ROWID;
