-- The vectors of whole document versions (those embedded whole too at ingest), beside the chunks' and kept in step
-- with them in the same transactions; read by key for the documents a search's passages found, never searched.
-- The column has no fixed dimension: this migration may first run while another model than the table's own is
-- configured (its dimension is not the table's); the store checks every vector's length before writing it.
CREATE TABLE IF NOT EXISTS polyrag_vectors_whole (
    document_id VARCHAR(64)  NOT NULL,
    version     BIGINT       NOT NULL,
    kb          VARCHAR(160) NOT NULL,
    embedding   vector       NOT NULL,
    PRIMARY KEY (document_id, version)
);
