-- An install whose consent was withdrawn after it was allowed (docs/privacy.md, "Consent"): its row
-- stays, marked, so its own install message arriving late (INSERT OR IGNORE) cannot allow it again.
ALTER TABLE conversion_installs ADD COLUMN withdrawn INTEGER NOT NULL DEFAULT 0;
