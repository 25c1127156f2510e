-- Cohorts (docs/operators.md#cohorts): installs grouped by their install day (the operator's day) and
-- campaign — channel, inviter, link, variant — and install method; for each cohort, how many of its
-- installs were seen (any app event or open) on each day 0–90 after, and their value per currency.
-- Added up by the funnel's consumer in the transaction that counts the funnel (worker/funnel/cohorts.ts).

-- The rollups: no event, install or person in them. `metric` is `installs` (age 0: the cohort's
-- size), `retained` (installs seen on day `age`) or `value:<ISO 4217>` (the amount its installs'
-- app events carried on day `age`, in the currency's minor units, refunds subtracted).
CREATE TABLE cohort_daily (
  app TEXT NOT NULL DEFAULT 'default',
  day TEXT NOT NULL,
  channel TEXT NOT NULL,
  inviter TEXT NOT NULL,
  link TEXT NOT NULL,
  variant TEXT NOT NULL,
  method TEXT NOT NULL,
  age INTEGER NOT NULL,
  metric TEXT NOT NULL,
  n INTEGER NOT NULL,
  PRIMARY KEY (app, day, channel, inviter, link, variant, method, age, metric)
) WITHOUT ROWID;
-- The daily sweep deletes by day alone (RETENTION.funnel, docs/privacy.md#retention).
CREATE INDEX cohort_daily_sweep ON cohort_daily (day);

-- Each install's cohort while its 90 days run, so its later events and opens find it, and the days
-- it was already seen on (bit N of `seen`: day N), so a day counts once however many events it has.
-- `install` is the install's ledger key (a keyed hash, as funnel_install_days keeps it), never its id.
-- `day` is NULL while only events of an install not yet counted are known: `pending` then holds
-- what they carried (JSON: day → currency → amount, `""` for no currency), folded in when the install
-- is counted. `until` (a UTC day) is when the row is forgotten: 92 days after its install, 3 days
-- after a pending row's first event. `version` makes two batches racing on one row fail the second.
CREATE TABLE cohort_installs (
  app TEXT NOT NULL DEFAULT 'default',
  install TEXT NOT NULL,
  day TEXT,
  channel TEXT NOT NULL,
  inviter TEXT NOT NULL,
  link TEXT NOT NULL,
  variant TEXT NOT NULL,
  method TEXT NOT NULL,
  seen TEXT NOT NULL,
  pending TEXT,
  until TEXT NOT NULL,
  version INTEGER NOT NULL,
  CHECK (version >= 0),
  PRIMARY KEY (app, install)
) WITHOUT ROWID;
CREATE INDEX cohort_installs_sweep ON cohort_installs (until);
