-- Judged queries of a knowledge base (POST /v1/knowledge-bases/{name}/judgments): one row per query and judged
-- document, keyed by the knowledge base's stored name (the tenant's namespace in it).
CREATE TABLE IF NOT EXISTS judgments (
    kb          VARCHAR(160) NOT NULL,
    query_id    VARCHAR(64)  NOT NULL,
    query       VARCHAR(4000) NOT NULL,
    document_id VARCHAR(200) NOT NULL,
    grade       INT          NOT NULL,
    PRIMARY KEY (kb, query_id, document_id)
);
-- What a knowledge base learned from them: the fusion a tuning chose, the last evaluation (JSON each).
CREATE TABLE IF NOT EXISTS kb_fusion (
    kb         VARCHAR(160) PRIMARY KEY,
    tuning     TEXT,
    evaluation TEXT,
    updated_at TIMESTAMP WITH TIME ZONE NOT NULL
);
