-- A sync's documents deleted because their source items are gone.
ALTER TABLE jobs ADD COLUMN IF NOT EXISTS deleted INT NOT NULL DEFAULT 0;
