-- Who made a short link (docs/campaign-links.md#invite-links-from-the-app): 'operator' through the
-- admin API (the console, npm run link, a key), 'app' through POST /api/a/links for a signed-in user.
ALTER TABLE funnel_links ADD COLUMN source TEXT NOT NULL DEFAULT 'operator';
