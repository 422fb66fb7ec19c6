-- What each tenant used, one row per tenant, day (UTC), metric and model; replicas add to the same rows.
CREATE TABLE IF NOT EXISTS usage_counts (
    tenant VARCHAR(64)  NOT NULL,
    usage_day DATE      NOT NULL,
    metric VARCHAR(32)  NOT NULL,
    model  VARCHAR(255) NOT NULL,
    amount BIGINT       NOT NULL,
    PRIMARY KEY (tenant, usage_day, metric, model)
);
-- An operator's limits on a tenant (null: none).
CREATE TABLE IF NOT EXISTS tenant_quotas (
    tenant                    VARCHAR(64) PRIMARY KEY,
    documents                 BIGINT,
    stored_mb                 BIGINT,
    extraction_tokens_per_day BIGINT,
    searches_per_minute       INT,
    updated_at                TIMESTAMP WITH TIME ZONE NOT NULL
);
