-- Replicas read each other's job changes (live events) by the time of the last write.
CREATE INDEX IF NOT EXISTS jobs_updated ON jobs (updated_at);
