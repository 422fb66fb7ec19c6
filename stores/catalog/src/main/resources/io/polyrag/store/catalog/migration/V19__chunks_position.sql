-- A hit's neighbours (a window of ordinals of one version) and a document's figures were read by scanning every chunk
-- of the document: the only index stopped at (document_id, version). A 2,000-page manual's answer read its 8,000 rows
-- per hit.
CREATE INDEX IF NOT EXISTS chunks_position ON chunks (document_id, version, ordinal);
-- The documents another source also records, looked up when a source deletes what it no longer lists.
CREATE INDEX IF NOT EXISTS source_items_document ON source_items (tenant, document_id);
