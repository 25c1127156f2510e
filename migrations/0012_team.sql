-- One team per deployment, roles per app (docs/operators.md#roles): who signed in (an Access or
-- OpenID Connect identity, lower-cased) holds which role in which app. While an app has no row here,
-- anyone signed in is its owner, as before members existed.
CREATE TABLE members (
  app TEXT NOT NULL,
  subject TEXT NOT NULL,
  role TEXT NOT NULL CHECK (role IN ('owner', 'admin', 'editor', 'analyst', 'viewer')),
  created_at INTEGER NOT NULL,
  updated_at INTEGER NOT NULL,
  PRIMARY KEY (app, subject)
);

-- API keys per app (docs/operators.md#api-keys): shown once, kept only as the SHA-256 of the key.
-- `scopes` is a JSON array of scopes (shared/roles.ts); `rate` the calls per minute it may make.
CREATE TABLE api_keys (
  id TEXT PRIMARY KEY,
  app TEXT NOT NULL,
  name TEXT NOT NULL,
  hash TEXT NOT NULL UNIQUE,
  scopes TEXT NOT NULL,
  rate INTEGER NOT NULL,
  expires_at INTEGER,
  revoked_at INTEGER,
  created_by TEXT NOT NULL,
  created_at INTEGER NOT NULL
);
CREATE INDEX api_keys_by_app ON api_keys (app, created_at);
