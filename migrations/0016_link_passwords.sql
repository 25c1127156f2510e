-- A short link's password (docs/smart-links.md#links): its PBKDF2-SHA-256 hash with its own salt and
-- iteration count, `pbkdf2-sha256$<iterations>$<salt>$<hash>` (base64url); NULL for a link anyone may open.
ALTER TABLE funnel_links ADD COLUMN password TEXT;
