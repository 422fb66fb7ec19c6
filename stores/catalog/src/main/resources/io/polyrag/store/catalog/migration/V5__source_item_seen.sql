-- The last scan that saw an item: a scan marks what it sees, then the items it did not see are the deleted ones,
-- without holding a folder's whole listing in memory.
ALTER TABLE source_items ADD COLUMN seen_scan BIGINT DEFAULT 0 NOT NULL;
