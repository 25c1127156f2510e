-- The funnel's storage (docs/operators.md): daily rollups, kept without a time limit. Nothing here
-- names a person: no address, no agent, no visitor id.

-- Counts per UTC day, dimension combination and metric ('view:landing', 'tap:download',
-- 'install:clipboard', 'install:unmatched:none', 'open', 'event:register'). '' is "none".
-- plain_channel and plain_inviter hold the unsigned query parameters, never mixed into channel and inviter.
CREATE TABLE funnel_daily (
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
  -- Sum of the app events' values (0 for other metrics).
  value_sum REAL NOT NULL DEFAULT 0,
  PRIMARY KEY (day, channel, inviter, link, os, inapp, country, lang, plain_channel, plain_inviter, metric)
) WITHOUT ROWID;

-- One row per visitor, day and dimension combination, so visitors are counted once a day under any
-- grouping or filter. `visitor` is a keyed hash whose key changes every day: rows of two days
-- cannot be joined, and nothing leads back to the visitor id or address.
-- Its dimension columns repeat funnel_daily's on purpose (keep the two in step): a visitor column in
-- funnel_daily would give every visitor their own count rows, and COUNT(DISTINCT visitor) needs the
-- visitor beside each dimension it may be grouped or filtered by (worker/funnel/stats-query.ts).
CREATE TABLE funnel_visitors (
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
  PRIMARY KEY (day, visitor, channel, inviter, link, os, inapp, country, lang, plain_channel, plain_inviter)
) WITHOUT ROWID;

-- Ids of the events already counted, with the day they were counted: a batch the queue delivers
-- again counts nothing twice. Kept only as long as the queue may redeliver (the consumer deletes older ones).
CREATE TABLE funnel_messages (
  id TEXT PRIMARY KEY,
  day TEXT NOT NULL
) WITHOUT ROWID;
CREATE INDEX funnel_messages_day ON funnel_messages (day);

-- Short links: /s/<slug> → the signed campaign token it was minted with.
CREATE TABLE funnel_links (
  slug TEXT PRIMARY KEY,
  token TEXT NOT NULL,
  data TEXT NOT NULL,
  created_at INTEGER NOT NULL,
  expires_at INTEGER
);
