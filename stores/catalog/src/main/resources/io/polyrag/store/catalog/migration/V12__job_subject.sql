-- What a job works on, written when it is submitted so a list of jobs can say it without reading payloads: the
-- knowledge base it writes into (stored name) and, for a sync, its source.
ALTER TABLE jobs ADD COLUMN IF NOT EXISTS kb VARCHAR(160);
ALTER TABLE jobs ADD COLUMN IF NOT EXISTS source VARCHAR(64);
