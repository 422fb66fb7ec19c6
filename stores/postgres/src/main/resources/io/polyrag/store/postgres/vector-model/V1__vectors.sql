-- The vectors of a model other than the first one the database saw: the same tables under a suffix of the model's
-- own (${suffix}), with a schema history of their own, so each model's index is created and kept apart.
CREATE EXTENSION IF NOT EXISTS vector;
CREATE TABLE IF NOT EXISTS polyrag_vector_model${suffix} (
    id        INT          PRIMARY KEY CHECK (id = 1),
    model     VARCHAR(255) NOT NULL,
    dimension INT          NOT NULL
);
CREATE TABLE IF NOT EXISTS polyrag_vectors${suffix} (
    chunk_id    VARCHAR(160) PRIMARY KEY,
    document_id VARCHAR(64)  NOT NULL,
    version     BIGINT       NOT NULL,
    kb          VARCHAR(160) NOT NULL,
    embedding   vector(${dimension}) NOT NULL
);
CREATE INDEX IF NOT EXISTS polyrag_vectors${suffix}_document ON polyrag_vectors${suffix} (document_id, version);
CREATE INDEX IF NOT EXISTS polyrag_vectors${suffix}_kb ON polyrag_vectors${suffix} (kb);
CREATE INDEX IF NOT EXISTS polyrag_vectors${suffix}_hnsw ON polyrag_vectors${suffix} USING hnsw (embedding vector_cosine_ops);
