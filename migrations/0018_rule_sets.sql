-- Named rule sets (docs/smart-links.md#rule-sets): ordered rules an app keeps under an id, which a
-- campaign token names in its signed `rules` field instead of carrying the rules. `rules` is the
-- JSON array as written, compiled when written; times are milliseconds since the epoch.
CREATE TABLE rule_sets (
  app TEXT NOT NULL,
  id TEXT NOT NULL,
  rules TEXT NOT NULL,
  created_at INTEGER NOT NULL,
  updated_at INTEGER NOT NULL,
  PRIMARY KEY (app, id)
);
