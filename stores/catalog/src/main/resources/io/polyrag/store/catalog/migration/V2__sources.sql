-- Sources kept in sync: what to read, how often, and per item what was last seen of it.
CREATE TABLE IF NOT EXISTS sources (
    tenant           VARCHAR(40)   NOT NULL,
    id               VARCHAR(64)   NOT NULL,
    type             VARCHAR(32)   NOT NULL,
    config           TEXT          NOT NULL,
    kb               VARCHAR(160)  NOT NULL,
    interval_seconds INT           NOT NULL,
    enabled          BOOLEAN       NOT NULL,
    created_at       TIMESTAMP WITH TIME ZONE NOT NULL,
    last_scan_at     TIMESTAMP WITH TIME ZONE,
    last_error       TEXT,
    PRIMARY KEY (tenant, id)
);
CREATE TABLE IF NOT EXISTS source_items (
    tenant      VARCHAR(40)   NOT NULL,
    source_id   VARCHAR(64)   NOT NULL,
    item        VARCHAR(4096) NOT NULL,
    modified_ms BIGINT        NOT NULL,
    size_bytes  BIGINT        NOT NULL,
    hash        VARCHAR(64)   NOT NULL,
    document_id VARCHAR(64)   NOT NULL,
    PRIMARY KEY (tenant, source_id, item)
);
