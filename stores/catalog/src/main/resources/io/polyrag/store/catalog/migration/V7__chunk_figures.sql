-- A figure's chunk keeps what shows it (number, media type, size, anchors, caption); empty for every other chunk.
ALTER TABLE chunks ADD COLUMN IF NOT EXISTS figure VARCHAR(2000) NOT NULL DEFAULT '';
-- How many figures a version has, so a search looks figures up only for the documents that have some.
ALTER TABLE document_versions ADD COLUMN IF NOT EXISTS figure_count INT NOT NULL DEFAULT 0;
ALTER TABLE documents ADD COLUMN IF NOT EXISTS figure_count INT NOT NULL DEFAULT 0;
