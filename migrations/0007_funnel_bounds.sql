-- The funnel's bounds (docs/operators.md#bounds): how many opens and app events of one install the
-- funnel counted on one day, and which event names each app has. Each count row carries the cap it
-- was counted against, and CHECK holds it there: two batches that each read room for the last one
-- cannot both take it, the second's transaction fails and its retry reads the count anew.

-- `install` is the install's ledger key (a keyed hash, as in the fraud tables); kept two days.
CREATE TABLE funnel_install_days (
  day TEXT NOT NULL,
  install TEXT NOT NULL,
  -- `event` or `open`.
  kind TEXT NOT NULL,
  n INTEGER NOT NULL,
  cap INTEGER NOT NULL,
  CHECK (n <= cap),
  PRIMARY KEY (day, install, kind)
) WITHOUT ROWID;

-- The names an app's events are counted under, kept without a time limit like funnel_daily; a name
-- past the cap is counted under `(other)`.
CREATE TABLE funnel_event_names (
  app TEXT NOT NULL,
  name TEXT NOT NULL,
  -- The UTC day the name was first counted.
  day TEXT NOT NULL,
  PRIMARY KEY (app, name)
) WITHOUT ROWID;

CREATE TABLE funnel_event_name_counts (
  app TEXT PRIMARY KEY,
  n INTEGER NOT NULL,
  cap INTEGER NOT NULL,
  CHECK (n <= cap)
);
