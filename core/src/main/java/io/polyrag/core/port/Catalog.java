package io.polyrag.core.port;

import io.polyrag.core.model.Chunk;
import io.polyrag.core.model.ChunkView;
import io.polyrag.core.model.DocumentDraft;
import io.polyrag.core.model.DocumentInfo;
import io.polyrag.core.model.DocumentMeta;
import io.polyrag.core.model.DocumentStatus;
import io.polyrag.core.model.DocumentVersion;
import io.polyrag.core.model.KnowledgeBaseInfo;
import io.polyrag.core.model.SearchScope;
import io.polyrag.core.model.VersionRecords;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Collection;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;

/**
 * The source of truth for documents, their chunks and which version of each is visible.
 *
 * <p>A document version moves through three steps: {@link #stage} records its chunks as pending, the pipeline writes
 * it to every enabled store, then {@link #publish} makes it the visible version (or {@link #discard} drops it when a
 * store failed). Retrieval resolves store hits through {@link #resolve}, which returns only chunks of visible
 * versions in scope: this one join gives all-or-nothing visibility across stores, soft delete and scope filtering.
 *
 * <p>Durability: a method that writes returns only once its transaction would survive the process being killed,
 * so the pipeline may acknowledge what it recorded as soon as the call returns.
 *
 * <p>Thread-safety: safe for concurrent use; each method is one transaction.
 */
public interface Catalog extends AutoCloseable {

    /**
     * The stored names of {@code tenant}'s knowledge bases (empty tenant: the local one's), sorted. A knowledge base
     * exists from its first document on, and stays until it is deleted.
     */
    List<String> knowledgeBases(String tenant);

    /** The knowledge base with this stored name, with its document and chunk counts. */
    Optional<KnowledgeBaseInfo> knowledgeBase(String name);

    /**
     * Every knowledge base of {@code tenant} with its counts, by name: {@link #knowledgeBase} for each of
     * {@link #knowledgeBases}, in one read where the catalog can (a tenant with a thousand listed them in a thousand).
     */
    default List<KnowledgeBaseInfo> knowledgeBaseInfos(String tenant) {
        return knowledgeBases(tenant).stream().flatMap(n -> knowledgeBase(n).stream()).toList();
    }

    /**
     * Records what a client says about a document (categories, subcategory, external reference) and, when
     * {@code title} is not null, the title it gave; false when the document is unknown.
     */
    boolean describe(String documentId, String title, DocumentMeta meta);

    /**
     * The document's visible version and how many records it calls for in each kind of store: one per chunk in the
     * vector and full-text stores, one per chunk with entities or relations in the graph and RDF stores (-1 when the
     * version predates that count). Empty when the document is unknown, deleted or not visible yet.
     */
    Optional<VersionRecords> visibleRecords(String documentId);

    /** Creates an empty knowledge base; false when one of that name exists. */
    boolean createKnowledgeBase(String name, String description);

    /**
     * Removes a knowledge base's row (its documents are deleted first, through the pipeline); false, keeping it, when
     * a document of it is there again (one staged since the caller's last page of deletes: delete it, then drop
     * again). A knowledge base that is not there counts as dropped.
     */
    boolean dropKnowledgeBase(String name);

    /** The document with this id, whether or not a version of it is visible yet; empty if unknown or deleted. */
    Optional<DocumentInfo> document(String documentId);

    /**
     * {@link #document} for several ids at once: the ones known and not deleted, by id. An ingest looks up a few
     * hundred inputs ahead this way, one query instead of one per document.
     */
    default Map<String, DocumentInfo> documentsById(Collection<String> documentIds) {
        Map<String, DocumentInfo> out = new HashMap<>();
        for (String id : documentIds) {
            document(id).ifPresent(d -> out.put(id, d));
        }
        return out;
    }

    /** Visible documents in {@code scope} whose content hash is {@code contentHash} (for duplicate detection). */
    List<DocumentInfo> documentsWithContent(String contentHash, SearchScope scope);

    /**
     * The next version number for a document: one more than any version it ever had (staged, published or
     * discarded), so a version number is never reused.
     */
    long nextVersion(String documentId);

    /** Records a pending version and its chunks; pending chunks are never returned by {@link #resolve}. */
    void stage(DocumentDraft draft, long version);

    /** {@link #nextVersion} for several documents, in one transaction (one durable commit for a batch). */
    default List<Long> nextVersions(List<String> documentIds) {
        return documentIds.stream().map(this::nextVersion).toList();
    }

    /** {@link #stage} for several versions, in one transaction: all are staged, or none. */
    default void stageAll(List<DocumentDraft> drafts, List<Long> versions) {
        for (int i = 0; i < drafts.size(); i++) {
            stage(drafts.get(i), versions.get(i));
        }
    }

    /**
     * What {@link #publish} did with one version of a batch.
     *
     * @param before as {@link #publish} returns it
     * @param refused why it was not published (not pending: discarded meanwhile), or null when it was
     */
    record Published(Optional<DocumentVersion> before, String refused) {
    }

    /**
     * {@link #publish} for several versions, in one transaction (one durable commit for a batch); a version that
     * cannot be published is refused alone, with its reason, and the others are published.
     */
    default List<Published> publishAll(List<DocumentVersion> versions) {
        List<Published> out = new ArrayList<>();
        for (DocumentVersion v : versions) {
            try {
                out.add(new Published(publish(v), null));
            } catch (IllegalStateException e) {
                out.add(new Published(Optional.empty(), e.getMessage()));
            }
        }
        return out;
    }

    /**
     * Makes the staged version the visible one and forgets the chunks of the version it replaces. Two writers of
     * one document (workers, replicas) are serialised: the higher version number wins, so a version older than the
     * visible one is not made visible but returned as replaced, for the caller to purge.
     *
     * @return the version that was visible before (to purge), or empty if none was
     * @throws IllegalStateException when the version is not pending (discarded meanwhile: its writer was taken for
     *     dead)
     */
    Optional<DocumentVersion> publish(DocumentVersion version);

    /**
     * Forgets a staged version that will never be published; what of it reached the stores is then listed by
     * {@link #unpurgedVersions()} until purged.
     *
     * @return false when it was not pending (published or discarded already)
     */
    boolean discard(DocumentVersion version);

    /** Versions staged but neither published nor discarded: left by a crash, to be cleaned from the stores. */
    List<DocumentVersion> pendingVersions();

    /**
     * The last version this catalog allocated to each of these documents; a document it never allocated one to is
     * absent. A store's records of a version no document here ever had are not this catalog's to delete: another
     * deployment's sharing the store, or a store pointed at by a catalog that is not its own.
     */
    Map<String, Long> allocatedVersions(Collection<String> documentIds);

    /**
     * Pending versions staged longer ago than {@code olderThan}: on a catalog shared by several processes, those
     * whose writer is taken for dead (a version is staged and published within one batch's write).
     */
    List<DocumentVersion> pendingVersions(Duration olderThan);

    /**
     * Whether other processes may use this catalog at the same time (a database server): then nothing a process
     * finds running or pending at start-up can be assumed abandoned by a previous run of its own.
     */
    default boolean shared() {
        return false;
    }

    /**
     * Versions replaced by a newer one, deleted or discarded, whose store records may still exist: the pipeline removes them from
     * every store, then calls {@link #markPurged}. What a crash left between those two steps is found here at the
     * next start.
     */
    List<DocumentVersion> unpurgedVersions();

    /** Records that the stores no longer hold these (replaced or deleted) versions. */
    void markPurged(Collection<DocumentVersion> versions);

    /** Every visible version, with the records the stores should hold of it, in document id order. */
    List<VersionRecords> visibleVersions();

    /**
     * What {@link #visibleVersions()} adds up to, in one aggregate query (the check at every start-up).
     *
     * @param chunks records a chunk index (vector, full text) should hold
     * @param graphChunks records the graph and RDF stores should hold, over versions whose count is known
     * @param graphUnknown whether some visible version's graph count is not known (written before it was counted)
     */
    record Totals(long chunks, long graphChunks, boolean graphUnknown) {
    }

    /**
     * Visible versions indexed while no graph or RDF store was enabled (their graph count is
     * {@link io.polyrag.core.model.VersionRecords#NOT_EXTRACTED}), in document id order, at most {@code limit}.
     */
    List<VersionRecords> unextracted(int limit);

    /** Records how many of a visible version's chunks carry entities or relations, once they were extracted. */
    void recordGraph(DocumentVersion version, int graphChunks);

    /** The totals of the visible versions; see {@link Totals}. */
    Totals totals();

    /**
     * Soft-deletes documents: they stop being visible at once; their chunks are forgotten, and a version still being
     * written is given up (its {@link #publish} is refused, saying the document was deleted).
     *
     * @return the versions that were visible, for the caller to delete from the stores
     */
    List<DocumentVersion> delete(Collection<String> documentIds);

    /**
     * Resolves chunk ids to visible chunks within scope. Ids of pending, replaced, deleted or out-of-scope chunks are
     * absent from the result. The map iterates in no particular order.
     */
    Map<String, ChunkView> resolve(Collection<String> chunkIds, SearchScope scope);

    /**
     * Chunks {@code fromOrdinal} to {@code toOrdinal} (inclusive) of a document's version, in reading order, if that
     * version is the visible one; empty otherwise. For weaving a hit's neighbours around it.
     */
    List<Chunk> chunks(String documentId, long version, int fromOrdinal, int toOrdinal);

    /**
     * The figure chunks of these document versions that are visible, by document and ordinal (for attaching
     * figures to the hits they belong with); none for a version that is not the visible one.
     */
    List<Chunk> figures(Collection<DocumentVersion> versions);

    /** Visible documents in scope, ordered by uri, paged. */
    default List<DocumentInfo> documents(SearchScope scope, int offset, int limit) {
        return documents(scope, DocumentStatus.VISIBLE, offset, limit);
    }

    /** Documents in scope with one of these statuses, ordered by uri, paged. */
    List<DocumentInfo> documents(SearchScope scope, Set<DocumentStatus> statuses,
            int offset, int limit);

    /** Visible documents in scope. */
    default long countDocuments(SearchScope scope) {
        return countDocuments(scope, DocumentStatus.VISIBLE);
    }

    /** Documents in scope with one of these statuses. */
    long countDocuments(SearchScope scope, Set<DocumentStatus> statuses);

    /** Fails, saying why, when the catalog cannot be read: one read, for readiness probes (not a count). */
    default void ping() {
        countDocuments(SearchScope.ALL);
    }

    @Override
    void close();
}
