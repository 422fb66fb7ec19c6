-- Contextual retrieval: the sentences a language model wrote to situate a chunk in its document, by a hash of
-- (model, prompt, chunk text), so a chunk ingested or re-indexed again is not sent to the model again.
CREATE TABLE IF NOT EXISTS chunk_contexts (
    cache_key  VARCHAR(64)   PRIMARY KEY,
    context    VARCHAR(4000) NOT NULL,
    created_at TIMESTAMP WITH TIME ZONE NOT NULL
);
