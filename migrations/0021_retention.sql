-- The daily sweep (worker/exports/forget-old.ts, docs/privacy.md#retention) deletes by a time column
-- alone; the tables' own indexes lead with the app or an endpoint, so each sweep would read the whole
-- table. One index per swept column makes a sweep read only the rows it removes.
CREATE INDEX IF NOT EXISTS webhook_events_sweep ON webhook_events (day);
CREATE INDEX IF NOT EXISTS webhook_deliveries_sweep ON webhook_deliveries (at);
CREATE INDEX IF NOT EXISTS webhook_attempts_sweep ON webhook_attempts (at);
CREATE INDEX IF NOT EXISTS funnel_visitors_sweep ON funnel_visitors (day);
CREATE INDEX IF NOT EXISTS funnel_daily_sweep ON funnel_daily (day);
CREATE INDEX IF NOT EXISTS funnel_install_days_sweep ON funnel_install_days (day);
CREATE INDEX IF NOT EXISTS test_answers_sweep ON test_answers (at);
CREATE INDEX IF NOT EXISTS store_postbacks_sweep ON store_postbacks (day);
CREATE INDEX IF NOT EXISTS fraud_installs_sweep ON fraud_installs (at);
CREATE INDEX IF NOT EXISTS fraud_flags_sweep ON fraud_flags (at);
CREATE INDEX IF NOT EXISTS fraud_identities_sweep ON fraud_identities (at);
