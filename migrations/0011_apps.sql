-- Several apps in one deployment (docs/operators.md#apps): every row names the app it belongs to.
-- A deployment from before this migration had one app, `default`; its rows become `default`'s with
-- no step. Where a key must be unique within an app only (two apps may each own the slug `spring`),
-- the table is rebuilt with its key starting with `app`; elsewhere the column is added.
--
-- Four tables already had a column `app` for the package name or bundle id an app's SDK sends: it
-- is renamed `app_id`, as in store_postbacks, so `app` means the same thing in every table.
-- `losses` stays the deployment's: an engine's fault is not one app's (docs/reliability.md).

-- The funnel: counts, visitors, counted message ids, bounds and event names.
CREATE TABLE funnel_daily_0011 (
  app TEXT NOT NULL DEFAULT 'default',
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
  metric TEXT NOT NULL,
  count INTEGER NOT NULL,
  value_sum REAL NOT NULL DEFAULT 0,
  PRIMARY KEY (app, day, channel, inviter, link, os, inapp, country, lang, plain_channel, plain_inviter, metric)
) WITHOUT ROWID;
INSERT INTO funnel_daily_0011 (app, day, channel, inviter, link, os, inapp, country, lang, plain_channel, plain_inviter, metric, count, value_sum)
  SELECT 'default', day, channel, inviter, link, os, inapp, country, lang, plain_channel, plain_inviter, metric, count, value_sum FROM funnel_daily;
DROP TABLE funnel_daily;
ALTER TABLE funnel_daily_0011 RENAME TO funnel_daily;

CREATE TABLE funnel_visitors_0011 (
  app TEXT NOT NULL DEFAULT 'default',
  day TEXT NOT NULL,
  visitor TEXT NOT NULL,
  channel TEXT NOT NULL,
  inviter TEXT NOT NULL,
  link TEXT NOT NULL,
  os TEXT NOT NULL,
  inapp TEXT NOT NULL,
  country TEXT NOT NULL,
  lang TEXT NOT NULL,
  plain_channel TEXT NOT NULL,
  plain_inviter TEXT NOT NULL,
  PRIMARY KEY (app, day, visitor, channel, inviter, link, os, inapp, country, lang, plain_channel, plain_inviter)
) WITHOUT ROWID;
INSERT INTO funnel_visitors_0011 (app, day, visitor, channel, inviter, link, os, inapp, country, lang, plain_channel, plain_inviter)
  SELECT 'default', day, visitor, channel, inviter, link, os, inapp, country, lang, plain_channel, plain_inviter FROM funnel_visitors;
DROP TABLE funnel_visitors;
ALTER TABLE funnel_visitors_0011 RENAME TO funnel_visitors;

CREATE TABLE funnel_messages_0011 (
  app TEXT NOT NULL DEFAULT 'default',
  id TEXT NOT NULL,
  day TEXT NOT NULL,
  PRIMARY KEY (app, id)
) WITHOUT ROWID;
INSERT INTO funnel_messages_0011 (app, id, day) SELECT 'default', id, day FROM funnel_messages;
DROP TABLE funnel_messages;
ALTER TABLE funnel_messages_0011 RENAME TO funnel_messages;
CREATE INDEX funnel_messages_day ON funnel_messages (day);

CREATE TABLE funnel_links_0011 (
  app TEXT NOT NULL DEFAULT 'default',
  slug TEXT NOT NULL,
  token TEXT NOT NULL,
  data TEXT NOT NULL,
  created_at INTEGER NOT NULL,
  expires_at INTEGER,
  PRIMARY KEY (app, slug)
);
INSERT INTO funnel_links_0011 (app, slug, token, data, created_at, expires_at)
  SELECT 'default', slug, token, data, created_at, expires_at FROM funnel_links;
DROP TABLE funnel_links;
ALTER TABLE funnel_links_0011 RENAME TO funnel_links;

CREATE TABLE funnel_install_days_0011 (
  app TEXT NOT NULL DEFAULT 'default',
  day TEXT NOT NULL,
  install TEXT NOT NULL,
  kind TEXT NOT NULL,
  n INTEGER NOT NULL,
  cap INTEGER NOT NULL,
  CHECK (n <= cap),
  PRIMARY KEY (app, day, install, kind)
) WITHOUT ROWID;
INSERT INTO funnel_install_days_0011 (app, day, install, kind, n, cap)
  SELECT 'default', day, install, kind, n, cap FROM funnel_install_days;
DROP TABLE funnel_install_days;
ALTER TABLE funnel_install_days_0011 RENAME TO funnel_install_days;

CREATE TABLE funnel_event_names_0011 (
  app TEXT NOT NULL DEFAULT 'default',
  app_id TEXT NOT NULL,
  name TEXT NOT NULL,
  day TEXT NOT NULL,
  PRIMARY KEY (app, app_id, name)
) WITHOUT ROWID;
INSERT INTO funnel_event_names_0011 (app, app_id, name, day) SELECT 'default', app, name, day FROM funnel_event_names;
DROP TABLE funnel_event_names;
ALTER TABLE funnel_event_names_0011 RENAME TO funnel_event_names;

CREATE TABLE funnel_event_name_counts_0011 (
  app TEXT NOT NULL DEFAULT 'default',
  app_id TEXT NOT NULL,
  n INTEGER NOT NULL,
  cap INTEGER NOT NULL,
  CHECK (n <= cap),
  PRIMARY KEY (app, app_id)
);
INSERT INTO funnel_event_name_counts_0011 (app, app_id, n, cap) SELECT 'default', app, n, cap FROM funnel_event_name_counts;
DROP TABLE funnel_event_name_counts;
ALTER TABLE funnel_event_name_counts_0011 RENAME TO funnel_event_name_counts;

-- Webhooks: an endpoint, event, delivery and attempt is its app's; ids stay unique in the deployment.
ALTER TABLE webhook_endpoints ADD COLUMN app TEXT NOT NULL DEFAULT 'default';
CREATE INDEX webhook_endpoints_app ON webhook_endpoints (app, created_at);
ALTER TABLE webhook_events ADD COLUMN app TEXT NOT NULL DEFAULT 'default';
DROP INDEX webhook_events_day;
CREATE INDEX webhook_events_day ON webhook_events (app, day, kind, at);
ALTER TABLE webhook_deliveries ADD COLUMN app TEXT NOT NULL DEFAULT 'default';
ALTER TABLE webhook_attempts ADD COLUMN app TEXT NOT NULL DEFAULT 'default';

-- Test devices and their answers.
ALTER TABLE test_answers RENAME COLUMN app TO app_id;
ALTER TABLE test_answers ADD COLUMN app TEXT NOT NULL DEFAULT 'default';
DROP INDEX test_answers_at;
CREATE INDEX test_answers_at ON test_answers (app, at);

CREATE TABLE test_devices_0011 (
  id INTEGER PRIMARY KEY AUTOINCREMENT,
  app TEXT NOT NULL DEFAULT 'default',
  app_id TEXT NOT NULL,
  device TEXT NOT NULL,
  label TEXT NOT NULL,
  created_at INTEGER NOT NULL,
  UNIQUE (app, device)
);
INSERT INTO test_devices_0011 (id, app, app_id, device, label, created_at)
  SELECT id, 'default', app, device, label, created_at FROM test_devices;
DROP TABLE test_devices;
ALTER TABLE test_devices_0011 RENAME TO test_devices;

-- Fraud: the install ids are keyed hashes of (package, install id), unique only within an app.
CREATE TABLE fraud_installs_0011 (
  app TEXT NOT NULL DEFAULT 'default',
  id TEXT NOT NULL,
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
  method TEXT NOT NULL,
  network TEXT NOT NULL,
  visitor TEXT NOT NULL,
  PRIMARY KEY (app, id)
) WITHOUT ROWID;
INSERT INTO fraud_installs_0011 (app, id, at, day, channel, inviter, link, os, inapp, country, lang, plain_channel, plain_inviter, method, network, visitor)
  SELECT 'default', id, at, day, channel, inviter, link, os, inapp, country, lang, plain_channel, plain_inviter, method, network, visitor FROM fraud_installs;
DROP TABLE fraud_installs;
ALTER TABLE fraud_installs_0011 RENAME TO fraud_installs;
CREATE INDEX fraud_installs_day ON fraud_installs (app, day, inviter, channel);

CREATE TABLE fraud_flags_0011 (
  app TEXT NOT NULL DEFAULT 'default',
  install TEXT NOT NULL,
  rule TEXT NOT NULL,
  reason TEXT NOT NULL,
  at INTEGER NOT NULL,
  PRIMARY KEY (app, install, rule)
) WITHOUT ROWID;
INSERT INTO fraud_flags_0011 (app, install, rule, reason, at) SELECT 'default', install, rule, reason, at FROM fraud_flags;
DROP TABLE fraud_flags;
ALTER TABLE fraud_flags_0011 RENAME TO fraud_flags;

CREATE TABLE fraud_identities_0011 (
  app TEXT NOT NULL DEFAULT 'default',
  user TEXT NOT NULL,
  kind TEXT NOT NULL,
  value TEXT NOT NULL,
  at INTEGER NOT NULL,
  PRIMARY KEY (app, user, kind, value)
) WITHOUT ROWID;
INSERT INTO fraud_identities_0011 (app, user, kind, value, at) SELECT 'default', user, kind, value, at FROM fraud_identities;
DROP TABLE fraud_identities;
ALTER TABLE fraud_identities_0011 RENAME TO fraud_identities;

-- Apple's postbacks: Apple's id is unique, but an app keeps only its own copy.
CREATE TABLE store_postbacks_0011 (
  app TEXT NOT NULL DEFAULT 'default',
  kind TEXT NOT NULL,
  postback_id TEXT NOT NULL,
  day TEXT NOT NULL,
  received_at INTEGER NOT NULL,
  version TEXT NOT NULL,
  ad_network TEXT NOT NULL,
  app_id TEXT NOT NULL,
  source TEXT NOT NULL,
  publisher TEXT NOT NULL,
  conversion_value INTEGER,
  coarse_value TEXT,
  sequence_index INTEGER NOT NULL,
  country_code TEXT,
  reengagement INTEGER NOT NULL,
  won INTEGER NOT NULL,
  PRIMARY KEY (app, kind, postback_id)
) WITHOUT ROWID;
INSERT INTO store_postbacks_0011 (app, kind, postback_id, day, received_at, version, ad_network, app_id, source, publisher, conversion_value, coarse_value, sequence_index, country_code, reengagement, won)
  SELECT 'default', kind, postback_id, day, received_at, version, ad_network, app_id, source, publisher, conversion_value, coarse_value, sequence_index, country_code, reengagement, won FROM store_postbacks;
DROP TABLE store_postbacks;
ALTER TABLE store_postbacks_0011 RENAME TO store_postbacks;
CREATE INDEX store_postbacks_day ON store_postbacks (app, day);

-- The audit log already names its app (0010); its readers filter by it.
CREATE INDEX audit_entries_app ON audit_entries (app, seq);
