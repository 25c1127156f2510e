-- A short link's preview (docs/smart-links.md#previews): the title, description and image link
-- previewers show, as JSON `{"title","description","image"}` (image an https URL or "card"); NULL for none.
ALTER TABLE funnel_links ADD COLUMN preview TEXT;
