-- The indexing settings (a fingerprint of the embedding model, chunking, parser, legs) a source's last whole sync
-- indexed its items with: a sync under other settings reads every item again instead of trusting its recorded state.
-- Sources synced before this migration have none, and keep their items until the next change of settings.
ALTER TABLE sources ADD COLUMN IF NOT EXISTS indexed_with VARCHAR(128) NOT NULL DEFAULT '';
