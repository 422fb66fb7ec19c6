-- The tenant that registered a source of local mode's rows after it adopted them (empty: local mode itself): its
-- scans are confined to that tenant's folders, not the operator's.
ALTER TABLE sources ADD COLUMN IF NOT EXISTS registered_by VARCHAR(40) DEFAULT '' NOT NULL;
