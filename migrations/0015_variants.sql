-- A link's variants (docs/smart-links.md#variants-and-the-sequential-test): the link keeps them as
-- JSON (NULL: none), and every count names the variant its visit saw ('' for none), as it names the
-- link. The funnel's two tables keyed by their dimensions are rebuilt with `variant` in the key; a
-- deployment's rows from before this migration are the variant ''.

ALTER TABLE funnel_links ADD COLUMN variants TEXT;

CREATE TABLE funnel_daily_0015 (
  app TEXT NOT NULL DEFAULT 'default',
  day TEXT NOT NULL,
  channel TEXT NOT NULL,
  inviter TEXT NOT NULL,
  link TEXT NOT NULL,
  variant TEXT NOT NULL DEFAULT '',
  os TEXT NOT NULL,
  inapp TEXT NOT NULL,
  country TEXT NOT NULL,
  lang TEXT NOT NULL,
  plain_channel TEXT NOT NULL,
  plain_inviter TEXT NOT NULL,
  metric TEXT NOT NULL,
  count INTEGER NOT NULL,
  value_sum REAL NOT NULL DEFAULT 0,
  PRIMARY KEY (app, day, channel, inviter, link, variant, os, inapp, country, lang, plain_channel, plain_inviter, metric)
) WITHOUT ROWID;
INSERT INTO funnel_daily_0015 (app, day, channel, inviter, link, variant, os, inapp, country, lang, plain_channel, plain_inviter, metric, count, value_sum)
  SELECT app, day, channel, inviter, link, '', os, inapp, country, lang, plain_channel, plain_inviter, metric, count, value_sum FROM funnel_daily;
DROP TABLE funnel_daily;
ALTER TABLE funnel_daily_0015 RENAME TO funnel_daily;

CREATE TABLE funnel_visitors_0015 (
  app TEXT NOT NULL DEFAULT 'default',
  day TEXT NOT NULL,
  visitor TEXT NOT NULL,
  channel TEXT NOT NULL,
  inviter TEXT NOT NULL,
  link TEXT NOT NULL,
  variant TEXT NOT NULL DEFAULT '',
  os TEXT NOT NULL,
  inapp TEXT NOT NULL,
  country TEXT NOT NULL,
  lang TEXT NOT NULL,
  plain_channel TEXT NOT NULL,
  plain_inviter TEXT NOT NULL,
  PRIMARY KEY (app, day, visitor, channel, inviter, link, variant, os, inapp, country, lang, plain_channel, plain_inviter)
) WITHOUT ROWID;
INSERT INTO funnel_visitors_0015 (app, day, visitor, channel, inviter, link, variant, os, inapp, country, lang, plain_channel, plain_inviter)
  SELECT app, day, visitor, channel, inviter, link, '', os, inapp, country, lang, plain_channel, plain_inviter FROM funnel_visitors;
DROP TABLE funnel_visitors;
ALTER TABLE funnel_visitors_0015 RENAME TO funnel_visitors;

ALTER TABLE fraud_installs ADD COLUMN variant TEXT NOT NULL DEFAULT '';
