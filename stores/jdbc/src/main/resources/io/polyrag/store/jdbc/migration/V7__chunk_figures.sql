-- A figure's chunk keeps what shows it (number, media type, size, anchors, caption); empty for every other chunk.
ALTER TABLE chunks ADD COLUMN IF NOT EXISTS figure VARCHAR(2000) NOT NULL DEFAULT '';
