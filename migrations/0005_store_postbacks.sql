-- Apple's signed postbacks, developers' copies (docs/store-postbacks.md): one row per verified
-- postback, apart from the funnel's counts. The primary key is Apple's own id of the postback
-- (SKAdNetwork's transaction-id, AdAttributionKit's postback-identifier): a resent copy is not
-- inserted again. Rows hold only the aggregates Apple gives, never the signature or the JWS.
CREATE TABLE store_postbacks (
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
  PRIMARY KEY (kind, postback_id)
) WITHOUT ROWID;
CREATE INDEX store_postbacks_day ON store_postbacks (day);
