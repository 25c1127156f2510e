-- Revenue (docs/operators.md#revenue): the app events' values that name an ISO 4217 currency, added
-- up per app, day, dimension combination and currency by the funnel's consumer, in the transaction
-- that counts the events. Nothing raw is kept: no event, install or person, only the sums.
-- `amount` is the net sum in the currency's minor units (refunds, negative values, subtracted);
-- `refunds` the sum of the negative ones as a positive number; `events` how many were added. Integers,
-- so a sum is exact to the minor unit; each held within ±1e15 (worker/funnel/bounds.ts).
-- Its dimension columns repeat funnel_daily's, so every grouping and filter of /api/stats reads it.
CREATE TABLE funnel_revenue (
  app TEXT NOT NULL DEFAULT 'default',
  day TEXT NOT NULL,
  channel TEXT NOT NULL,
  inviter TEXT NOT NULL,
  link TEXT NOT NULL,
  variant TEXT NOT NULL,
  os TEXT NOT NULL,
  inapp TEXT NOT NULL,
  country TEXT NOT NULL,
  lang TEXT NOT NULL,
  plain_channel TEXT NOT NULL,
  plain_inviter TEXT NOT NULL,
  currency TEXT NOT NULL,
  events INTEGER NOT NULL,
  amount INTEGER NOT NULL,
  refunds INTEGER NOT NULL,
  PRIMARY KEY (app, day, channel, inviter, link, variant, os, inapp, country, lang, plain_channel, plain_inviter, currency)
) WITHOUT ROWID;
-- The daily sweep deletes by day alone (migrations/0021_retention.sql).
CREATE INDEX funnel_revenue_sweep ON funnel_revenue (day);
