-- A short link's rules (docs/smart-links.md): its ordered CEL conditions and actions as written, a
-- JSON array; NULL for a link without rules, which serves its page as before.
ALTER TABLE funnel_links ADD COLUMN rules TEXT;
