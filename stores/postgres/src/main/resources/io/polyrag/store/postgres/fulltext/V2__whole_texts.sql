-- Each document version's whole text (its chunks joined, the title they repeat once) as an English tsvector, with
-- BM25 statistics of its own counted over documents: how many documents hold each lexeme, how many documents and
-- tokens there are. Kept in step with the chunks in the same transactions.
CREATE TABLE IF NOT EXISTS polyrag_fulltext_docs (
    document_id VARCHAR(64)  NOT NULL,
    version     BIGINT       NOT NULL,
    kb          VARCHAR(160) NOT NULL,
    tsv         tsvector     NOT NULL,
    len         INT          NOT NULL,
    PRIMARY KEY (document_id, version)
);
CREATE INDEX IF NOT EXISTS polyrag_fulltext_docs_tsv ON polyrag_fulltext_docs USING gin (tsv);
CREATE TABLE IF NOT EXISTS polyrag_fulltext_doc_terms (
    lexeme TEXT   PRIMARY KEY,
    df     BIGINT NOT NULL
);
ALTER TABLE polyrag_fulltext_stats ADD COLUMN IF NOT EXISTS docs BIGINT NOT NULL DEFAULT 0;
ALTER TABLE polyrag_fulltext_stats ADD COLUMN IF NOT EXISTS doc_tokens BIGINT NOT NULL DEFAULT 0;
