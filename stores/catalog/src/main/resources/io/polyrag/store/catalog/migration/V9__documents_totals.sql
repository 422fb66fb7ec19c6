-- The catalog's totals (chunks and graph counts of the visible documents) are read at every start and while a store
-- is being back-filled. They were a scan of the documents table: about 10 s at 1,000,000 documents on H2. An index
-- holding every column the sum reads answers it from the index alone (0.8 s -> 0.07 s at 100,000 documents).
CREATE INDEX IF NOT EXISTS documents_totals ON documents (deleted, visible_version, chunk_count, graph_chunks);
