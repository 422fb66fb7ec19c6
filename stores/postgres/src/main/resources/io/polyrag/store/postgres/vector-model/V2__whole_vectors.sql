-- The whole document versions' vectors of this model (vector/V2__whole_vectors.sql), under its suffix.
CREATE TABLE IF NOT EXISTS polyrag_vectors${suffix}_whole (
    document_id VARCHAR(64)  NOT NULL,
    version     BIGINT       NOT NULL,
    kb          VARCHAR(160) NOT NULL,
    embedding   vector       NOT NULL,
    PRIMARY KEY (document_id, version)
);
