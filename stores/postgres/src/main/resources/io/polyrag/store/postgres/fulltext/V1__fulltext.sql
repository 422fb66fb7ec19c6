-- Chunks as English tsvectors with their length in tokens; BM25 needs the collection's statistics too: how many
-- chunks hold each lexeme, and how many chunks and tokens there are. Writers keep them in step in the same
-- transaction (serialised by an advisory lock).
CREATE TABLE IF NOT EXISTS polyrag_fulltext (
    chunk_id    VARCHAR(160) PRIMARY KEY,
    document_id VARCHAR(64)  NOT NULL,
    version     BIGINT       NOT NULL,
    kb          VARCHAR(160) NOT NULL,
    tsv         tsvector     NOT NULL,
    len         INT          NOT NULL
);
CREATE INDEX IF NOT EXISTS polyrag_fulltext_tsv ON polyrag_fulltext USING gin (tsv);
CREATE INDEX IF NOT EXISTS polyrag_fulltext_document ON polyrag_fulltext (document_id, version);
CREATE INDEX IF NOT EXISTS polyrag_fulltext_kb ON polyrag_fulltext (kb);
CREATE TABLE IF NOT EXISTS polyrag_fulltext_terms (
    lexeme TEXT   PRIMARY KEY,
    df     BIGINT NOT NULL
);
CREATE TABLE IF NOT EXISTS polyrag_fulltext_stats (
    id        INT    PRIMARY KEY CHECK (id = 1),
    chunks    BIGINT NOT NULL,
    tokens    BIGINT NOT NULL
);
INSERT INTO polyrag_fulltext_stats (id, chunks, tokens) VALUES (1, 0, 0) ON CONFLICT (id) DO NOTHING;
