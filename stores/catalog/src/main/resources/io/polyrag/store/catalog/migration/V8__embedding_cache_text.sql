-- Cached vectors are looked up by a batch's text hashes. The primary key (model, text_hash) served that lookup on H2
-- by its first column only, scanning every cached vector of the model for each batch (ingest slowed as the cache
-- grew: quadratic in the collection); an index led by text_hash serves it directly on H2 and PostgreSQL alike.
CREATE INDEX IF NOT EXISTS embedding_cache_text ON embedding_cache (text_hash, model);
