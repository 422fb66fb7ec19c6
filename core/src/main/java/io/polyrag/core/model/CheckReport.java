package io.polyrag.core.model;

import java.util.List;

/**
 * How every enabled store compares with the catalog, the source of truth (what {@code polyrag check} prints).
 *
 * @param documents visible documents in the catalog
 * @param stores one entry per enabled store, in modality order
 * @param repaired whether differences were repaired (orphans removed, missing records re-indexed)
 */
public record CheckReport(long documents, List<StoreCheck> stores, boolean repaired) {
    public CheckReport {
        stores = List.copyOf(stores);
    }

    /** Whether every store holds exactly what the catalog's visible versions say (after a repair, if one ran). */
    public boolean consistent() {
        return stores.stream().allMatch(StoreCheck::consistent);
    }

    /**
     * One store against the catalog.
     *
     * @param store the modality's name
     * @param expectedRecords records the catalog's visible versions call for (graph and RDF: chunks with entities or
     *     relations; versions written before polyrag counted them are left out)
     * @param records records the store holds (after the repair, if one ran and changed something)
     * @param orphanVersions document versions the store holds that no visible version owns (replaced, deleted, or
     *     never published)
     * @param orphanRecords their records
     * @param lackingVersions visible versions whose records the store lacks, in part or in whole, or holds too many of
     * @param lackingRecords records missing from those versions
     * @param examples up to ten of the differing versions, as {@code documentId@version (what)}
     * @param removedVersions orphan versions a repair removed
     * @param reindexedVersions versions a repair re-indexed from the catalog's chunk text
     */
    public record StoreCheck(String store, long expectedRecords, long records, int orphanVersions, long orphanRecords,
            int lackingVersions, long lackingRecords, List<String> examples, int removedVersions,
            int reindexedVersions) {
        public StoreCheck {
            examples = List.copyOf(examples);
        }

        /** Whether nothing differs (or a repair fixed all that did). */
        public boolean consistent() {
            return orphanVersions == removedVersions && lackingVersions == reindexedVersions;
        }
    }
}
