-- What a conditional request sends back for an item (a web page's ETag); empty for files.
ALTER TABLE source_items ADD COLUMN validator VARCHAR(1024) DEFAULT '' NOT NULL;
