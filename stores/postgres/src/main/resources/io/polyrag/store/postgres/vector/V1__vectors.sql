-- pgvector must be available on the server; creating it needs a role allowed to (or a database where it exists).
CREATE EXTENSION IF NOT EXISTS vector;
CREATE TABLE IF NOT EXISTS polyrag_vector_model (
    id        INT          PRIMARY KEY CHECK (id = 1),
    model     VARCHAR(255) NOT NULL,
    dimension INT          NOT NULL
);
CREATE TABLE IF NOT EXISTS polyrag_vectors (
    chunk_id    VARCHAR(160) PRIMARY KEY,
    document_id VARCHAR(64)  NOT NULL,
    version     BIGINT       NOT NULL,
    kb          VARCHAR(160) NOT NULL,
    embedding   vector(${dimension}) NOT NULL
);
CREATE INDEX IF NOT EXISTS polyrag_vectors_document ON polyrag_vectors (document_id, version);
CREATE INDEX IF NOT EXISTS polyrag_vectors_kb ON polyrag_vectors (kb);
CREATE INDEX IF NOT EXISTS polyrag_vectors_hnsw ON polyrag_vectors USING hnsw (embedding vector_cosine_ops);
