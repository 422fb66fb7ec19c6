-- The uploaded bytes a job holds until it ends, so a tenant's waiting uploads count against its storage quota
-- without reading payloads. Jobs queued before this migration count 0.
ALTER TABLE jobs ADD COLUMN IF NOT EXISTS staged_bytes BIGINT NOT NULL DEFAULT 0;
