package io.polyrag.core.port;

import io.polyrag.core.model.Source;
import io.polyrag.core.model.SyncItem;
import java.time.Instant;
import java.util.Collection;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;

/** Registered sources and, per item, what their last sync saw; persisted so sync survives restarts. */
public interface SourceStore {
    /** Registers a source; false when the tenant already has one with that id. */
    boolean createSource(Source source);

    /** Replaces a source's settings (type, config, knowledge base, interval, enabled); false when there is none. */
    boolean updateSource(Source source);

    Optional<Source> source(String tenant, String id);

    /** The tenant's sources by id; {@code null} tenant: every tenant's (for the scheduler). */
    List<Source> sources(String tenant);

    /** Removes the source and its item state; false when there was none. */
    boolean deleteSource(String tenant, String id);

    /** Records the end of a scan: when, and what it could not do (null: nothing). */
    void sourceScanned(String tenant, String id, Instant at, String error);

    /**
     * What the source's last whole sync indexed its items with (a fingerprint of the indexing settings); empty when
     * none was recorded (a source synced before this was kept, or never synced whole).
     */
    String sourceIndexedWith(String tenant, String id);

    /** Records what a whole sync of the source indexed its items with. */
    void sourceIndexedWith(String tenant, String id, String signature);

    /** The item state of a source, by item id. */
    Map<String, SyncItem> sourceItems(String tenant, String sourceId);

    /** How many items of the source have a recorded state. */
    int countSourceItems(String tenant, String sourceId);

    /** Inserts or replaces item states. */
    void putSourceItems(String tenant, String sourceId, List<SyncItem> items);

    /** Forgets item states. */
    void deleteSourceItems(String tenant, String sourceId, List<String> items);

    /**
     * Forgets the item states, of any of the tenant's sources, that recorded these documents: deleted by hand, they
     * are indexed again at the next sync (their items found unchanged, they stayed gone until their bytes changed).
     */
    void forgetDocuments(String tenant, Collection<String> documentIds);

    /** The states of these items of a source (those it has), by item id: a scan's lookups, one batch at a time. */
    Map<String, SyncItem> sourceItems(String tenant, String sourceId, Collection<String> items);

    /** Marks items as seen by a scan (an increasing number), so the items it did not see can be found after it. */
    void markSourceItemsSeen(String tenant, String sourceId, Collection<String> items, long scan);

    /** How many items of a source the given scan did not mark seen. */
    int countUnseenSourceItems(String tenant, String sourceId, long scan);

    /** Up to {@code limit} items of a source that the given scan did not mark seen, in item order. */
    List<SyncItem> unseenSourceItems(String tenant, String sourceId, long scan, int limit);

    /**
     * Which of these documents another source of the tenant also records (sources over nested folders, overlapping
     * prefixes): one source's deletion must not take a document the other still holds.
     */
    Set<String> documentsOfOtherSources(String tenant, String sourceId, Collection<String> documentIds);
}
