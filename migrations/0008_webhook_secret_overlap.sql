-- A rotated webhook secret keeps signing for a while (docs/webhooks.md#signing): `previous_secret`
-- is the secret the last rotation replaced, and `previous_secret_until` (ms) the end of the window
-- in which each delivery is signed with it as well as with `secret`.
ALTER TABLE webhook_endpoints ADD COLUMN previous_secret TEXT;
ALTER TABLE webhook_endpoints ADD COLUMN previous_secret_until INTEGER;
