-- A crash is not a job's fault: a run that ended without recording its end is charged (a strike) only when it made
-- no progress past the furthest any earlier run of the job reached (high_water, at the claim: claim_water). A job is
-- given up after too many strikes, not after too many restarts. claimed_at orders tenants for fair claiming.
ALTER TABLE jobs ADD COLUMN IF NOT EXISTS strikes INT NOT NULL DEFAULT 0;
ALTER TABLE jobs ADD COLUMN IF NOT EXISTS high_water INT NOT NULL DEFAULT 0;
ALTER TABLE jobs ADD COLUMN IF NOT EXISTS claim_water INT NOT NULL DEFAULT 0;
ALTER TABLE jobs ADD COLUMN IF NOT EXISTS claimed_at TIMESTAMP WITH TIME ZONE;
CREATE INDEX IF NOT EXISTS jobs_tenant_claimed ON jobs (tenant, claimed_at);
