-- The rows of purged versions a document no longer needs: each but the newest version that was ever visible (the
-- document's high-water mark, which publishing reads). Until this version every update left its row for good;
-- from now on marking versions purged prunes them as it goes (JdbcCatalog.PRUNE, the same statement per document).
DELETE FROM document_versions WHERE state = 'purged' AND version < (SELECT MAX(n.version) FROM document_versions n
    WHERE n.document_id = document_versions.document_id
      AND n.state IN ('published', 'replaced', 'deleted', 'purged'));
