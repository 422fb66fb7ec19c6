CREATE TABLE IF NOT EXISTS documents (
    id              VARCHAR(64)   PRIMARY KEY,
    kb              VARCHAR(64)   NOT NULL,
    uri             VARCHAR(4096) NOT NULL,
    title           VARCHAR(1024) NOT NULL,
    media_type      VARCHAR(255)  NOT NULL,
    content_hash    VARCHAR(64)   NOT NULL,
    size_bytes      BIGINT        NOT NULL,
    visible_version BIGINT        NOT NULL DEFAULT 0,
    chunk_count     INT           NOT NULL DEFAULT 0,
    deleted         BOOLEAN       NOT NULL DEFAULT FALSE,
    updated_at      TIMESTAMP WITH TIME ZONE NOT NULL
);
CREATE INDEX IF NOT EXISTS documents_kb_uri ON documents (kb, uri);
CREATE TABLE IF NOT EXISTS version_counters (
    document_id  VARCHAR(64) PRIMARY KEY,
    last_version BIGINT      NOT NULL
);
CREATE TABLE IF NOT EXISTS document_versions (
    document_id  VARCHAR(64)   NOT NULL,
    version      BIGINT        NOT NULL,
    state        VARCHAR(16)   NOT NULL,
    title        VARCHAR(1024) NOT NULL,
    media_type   VARCHAR(255)  NOT NULL,
    content_hash VARCHAR(64)   NOT NULL,
    size_bytes   BIGINT        NOT NULL,
    created_at   TIMESTAMP WITH TIME ZONE NOT NULL,
    PRIMARY KEY (document_id, version)
);
CREATE INDEX IF NOT EXISTS document_versions_state ON document_versions (state);
CREATE TABLE IF NOT EXISTS chunks (
    id              VARCHAR(160) PRIMARY KEY,
    document_id     VARCHAR(64)  NOT NULL,
    version         BIGINT       NOT NULL,
    ordinal         INT          NOT NULL,
    kind            VARCHAR(8)   NOT NULL,
    text            TEXT         NOT NULL,
    heading_path    TEXT         NOT NULL,
    start_offset    INT          NOT NULL,
    end_offset      INT          NOT NULL,
    token_count     INT          NOT NULL,
    embedding_model VARCHAR(255) NOT NULL
);
CREATE INDEX IF NOT EXISTS chunks_document ON chunks (document_id, version);
CREATE TABLE IF NOT EXISTS jobs (
    id          VARCHAR(36)  PRIMARY KEY,
    kind        VARCHAR(32)  NOT NULL,
    status      VARCHAR(16)  NOT NULL,
    payload     TEXT         NOT NULL,
    stage       VARCHAR(64)  NOT NULL,
    total       INT          NOT NULL DEFAULT 0,
    processed   INT          NOT NULL DEFAULT 0,
    added       INT          NOT NULL DEFAULT 0,
    updated     INT          NOT NULL DEFAULT 0,
    unchanged   INT          NOT NULL DEFAULT 0,
    failed      INT          NOT NULL DEFAULT 0,
    chunks      INT          NOT NULL DEFAULT 0,
    stores      VARCHAR(255) NOT NULL DEFAULT '',
    errors      TEXT         NOT NULL DEFAULT '',
    error       TEXT,
    attempts    INT          NOT NULL DEFAULT 0,
    created_at  TIMESTAMP WITH TIME ZONE NOT NULL,
    updated_at  TIMESTAMP WITH TIME ZONE NOT NULL
);
CREATE INDEX IF NOT EXISTS jobs_status ON jobs (status, created_at);
CREATE TABLE IF NOT EXISTS embedding_cache (
    model     VARCHAR(255) NOT NULL,
    text_hash VARCHAR(64)  NOT NULL,
    vector    BYTEA        NOT NULL,
    PRIMARY KEY (model, text_hash)
);
CREATE TABLE IF NOT EXISTS response_cache (
    cache_key  VARCHAR(64) NOT NULL PRIMARY KEY,
    response   TEXT        NOT NULL,
    created_at TIMESTAMP WITH TIME ZONE NOT NULL
);
ALTER TABLE jobs ADD COLUMN IF NOT EXISTS relations INT NOT NULL DEFAULT 0;
ALTER TABLE jobs ADD COLUMN IF NOT EXISTS extraction_tokens BIGINT NOT NULL DEFAULT 0;
ALTER TABLE jobs ADD COLUMN IF NOT EXISTS estimated_calls BIGINT NOT NULL DEFAULT 0;
ALTER TABLE jobs ADD COLUMN IF NOT EXISTS estimated_tokens BIGINT NOT NULL DEFAULT 0;
ALTER TABLE jobs ADD COLUMN IF NOT EXISTS warnings TEXT NOT NULL DEFAULT '';
ALTER TABLE chunks ADD COLUMN IF NOT EXISTS location VARCHAR(255) NOT NULL DEFAULT '';
CREATE INDEX IF NOT EXISTS documents_content ON documents (content_hash);
ALTER TABLE document_versions ADD COLUMN IF NOT EXISTS graph_chunks INT NOT NULL DEFAULT -1;
ALTER TABLE documents ADD COLUMN IF NOT EXISTS graph_chunks INT NOT NULL DEFAULT -1;
ALTER TABLE documents ALTER COLUMN kb SET DATA TYPE VARCHAR(160);
ALTER TABLE jobs ADD COLUMN IF NOT EXISTS tenant VARCHAR(40) NOT NULL DEFAULT '';
CREATE INDEX IF NOT EXISTS jobs_tenant ON jobs (tenant, created_at);
CREATE TABLE IF NOT EXISTS knowledge_bases (
    name        VARCHAR(160)  PRIMARY KEY,
    tenant      VARCHAR(40)   NOT NULL,
    description VARCHAR(1024) NOT NULL DEFAULT '',
    created_at  TIMESTAMP WITH TIME ZONE NOT NULL
);
CREATE INDEX IF NOT EXISTS knowledge_bases_tenant ON knowledge_bases (tenant, name);
INSERT INTO knowledge_bases (name, tenant, created_at)
    SELECT DISTINCT d.kb, CASE WHEN POSITION('/' IN d.kb) > 0 THEN SUBSTRING(d.kb, 1, POSITION('/' IN d.kb) - 1)
        ELSE '' END, CURRENT_TIMESTAMP
    FROM documents d WHERE NOT EXISTS (SELECT 1 FROM knowledge_bases k WHERE k.name = d.kb);
CREATE TABLE IF NOT EXISTS api_keys (
    id          VARCHAR(36)  PRIMARY KEY,
    tenant      VARCHAR(40)  NOT NULL,
    name        VARCHAR(200) NOT NULL DEFAULT '',
    key_hash    VARCHAR(64)  NOT NULL UNIQUE,
    created_at  TIMESTAMP WITH TIME ZONE NOT NULL,
    revoked_at  TIMESTAMP WITH TIME ZONE
);
ALTER TABLE jobs ADD COLUMN IF NOT EXISTS cancel_requested BOOLEAN NOT NULL DEFAULT FALSE;
ALTER TABLE documents ADD COLUMN IF NOT EXISTS categories VARCHAR(4096) NOT NULL DEFAULT '';
ALTER TABLE documents ADD COLUMN IF NOT EXISTS subcategory VARCHAR(200) NOT NULL DEFAULT '';
ALTER TABLE documents ADD COLUMN IF NOT EXISTS external_ref VARCHAR(1024) NOT NULL DEFAULT '';
