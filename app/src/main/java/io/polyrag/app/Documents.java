package io.polyrag.app;

import io.polyrag.app.api.Limits;
import io.polyrag.app.api.StoreCoverage;
import io.polyrag.core.InvalidInputException;
import io.polyrag.core.NotFoundException;
import io.polyrag.core.model.DocumentInfo;
import io.polyrag.core.model.DocumentMeta;
import io.polyrag.core.model.DocumentStatus;
import io.polyrag.core.model.Figure;
import io.polyrag.core.model.Ids;
import io.polyrag.core.model.KnowledgeBase;
import io.polyrag.core.model.SearchScope;
import io.polyrag.core.model.Tenant;
import io.polyrag.core.port.BlobStore;
import io.polyrag.core.port.Catalog;
import io.polyrag.core.port.SourceStore;
import io.polyrag.ingest.IngestPipeline;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.Optional;
import java.util.Set;
import java.util.TreeMap;

/** The indexed documents: list them, delete them (from the catalog and every store). */
public final class Documents {
    private final Catalog catalog;
    private final IngestPipeline pipeline;
    private final BlobStore blobs;
    private final Tenant tenant;
    private final SourceStore sourceItems;

    Documents(Catalog catalog, IngestPipeline pipeline, BlobStore blobs, Tenant tenant, SourceStore sourceItems) {
        this.sourceItems = sourceItems;
        this.catalog = catalog;
        this.pipeline = pipeline;
        this.blobs = blobs;
        this.tenant = tenant;
    }

    /** A page of visible documents, by uri; {@code knowledgeBase} null for every knowledge base of the tenant. */
    public List<DocumentInfo> list(KnowledgeBase knowledgeBase, int offset, int limit) {
        return list(knowledgeBase, null, offset, limit).documents();
    }

    /**
     * A page of visible documents and how many there are in all.
     *
     * @param documents the page, by uri
     * @param total every visible document the filters admit
     */
    public record Page(List<DocumentInfo> documents, long total) {
    }

    /** A page of visible documents of one knowledge base (null: all of the tenant's) and one category (null: any). */
    public Page list(KnowledgeBase knowledgeBase, String category, int offset, int limit) {
        return list(knowledgeBase, category, DocumentStatus.VISIBLE, offset, limit);
    }

    /**
     * A page of documents of one knowledge base (null: all of the tenant's), one category (null: any) and one of
     * these statuses, by uri, with the total the filters admit.
     */
    public Page list(KnowledgeBase knowledgeBase, String category,
            Set<DocumentStatus> statuses, int offset, int limit) {
        if (offset < 0 || limit < 1 || limit > Limits.MAX_PAGE) {
            throw new InvalidInputException("offset must be >= 0 and limit in [1, " + Limits.MAX_PAGE + "], got "
                    + offset + " and " + limit);
        }
        SearchScope scope = Scope.of(catalog, tenant, knowledgeBase).narrowed(
                Set.of(), DocumentMeta.category(category));
        return new Page(catalog.documents(scope, statuses, offset, limit).stream()
                .map(d -> Shown.of(tenant, d)).toList(), catalog.countDocuments(scope, statuses));
    }

    /**
     * The document with this id, if it is the tenant's, visible or still being indexed (another tenant's is not
     * found, like one that never was).
     */
    public DocumentInfo get(String id) {
        return known(id).map(d -> Shown.of(tenant, d)).orElseThrow(() -> notFound(id));
    }

    /**
     * Per enabled store, what it holds of the document's visible version, read live from the store, beside what the
     * catalog says it should hold (chunks in the vector and full-text stores, chunks with a graph part in the graph
     * and RDF stores). Empty while no version is visible. {@code polyrag check} runs the same comparison for every
     * document.
     */
    public Map<String, StoreCoverage> stores(String id) {
        known(id).orElseThrow(() -> notFound(id));
        var v = catalog.visibleRecords(id);
        if (v.isEmpty()) {
            return Map.of();
        }
        Map<String, Long> held = pipeline.stores().records(v.get().version());
        Map<String, StoreCoverage> out = new TreeMap<>();
        held.forEach((store, n) -> {
            boolean graph = store.equals("graph") || store.equals("rdf");
            out.put(store, StoreCoverage.of(graph ? v.get().graphChunks() : v.get().chunks(), n));
        });
        return out;
    }

    /** The original the document was uploaded as; not found for documents ingested from paths or text. */
    public BlobStore.Blob content(String id) {
        return content(id, 0);
    }

    /**
     * The document's stored original from byte {@code from} on (its size the whole original's): an object store
     * sends only that range, not every byte before it.
     */
    public BlobStore.Blob content(String id, long from) {
        if (own(id).isEmpty() && known(id).isPresent()) {
            throw new NotFoundException("document '" + Ids.abbreviate(id, 64) + "' is still being indexed: its "
                    + "original is served once it is (GET /v1/documents/" + Ids.abbreviate(id, 64) + " shows its status)");
        }
        own(id).orElseThrow(() -> notFound(id));
        return blobs.get(id, from).orElseThrow(() -> new NotFoundException("document '" + id
                + "' has no stored original: only uploaded files and synced web pages keep one (POST /v1/documents, "
                + "/v1/ingest/files); a document indexed from text, a path or a folder is read from where it came "
                + "from (its uri), and its field 'original' is false"));
    }

    /**
     * Figure {@code number} of the document's visible version: its image. Not found for another tenant's document,
     * one not visible yet, or a number it does not have.
     */
    public BlobStore.Blob figure(String id, int number) {
        DocumentInfo d = own(id).orElseThrow(() -> notFound(id));
        if (number < 1) {
            throw new InvalidInputException("figure numbers start at 1, got " + number);
        }
        return blobs.get(Figure.blobKey(d.id(), d.visibleVersion(), number))
                .orElseThrow(() -> new NotFoundException("document '" + id + "' has no figure "
                        + number + (d.visibleVersion() > 0 ? " (its figures are listed with the search hits and "
                        + "answer sources they belong to)" : "")));
    }

    private Optional<DocumentInfo> own(String id) {
        return known(id).filter(d -> d.visibleVersion() > 0);
    }

    /** The tenant's document with this id, visible or being indexed. */
    private Optional<DocumentInfo> known(String id) {
        return id == null ? Optional.empty() : catalog.document(id)
                .filter(d -> tenant.owns(d.knowledgeBase()));
    }

    private static NotFoundException notFound(String id) {
        return new NotFoundException("no document with id '" + Ids.abbreviate(
                id, 64) + "'");
    }

    /**
     * Deletes documents from the catalog and every store, those still being indexed too (what their writer then
     * publishes is refused); returns how many there were. Ids of another tenant's documents are not found, like ids
     * that never existed.
     */
    public int delete(List<String> documentIds) {
        // One read for the page, not one per document (a knowledge base's delete, 500 at a time).
        Map<String, DocumentInfo> found = catalog.documentsById(documentIds.stream().filter(Objects::nonNull)
                .distinct().toList());
        List<String> own = documentIds.stream().filter(id -> id != null && found.containsKey(id)
                && tenant.owns(found.get(id).knowledgeBase())).distinct().toList();
        if (own.isEmpty()) {
            return 0;
        }
        pipeline.delete(own);
        // Each original on its own: one that could not be deleted (the blob store unreachable a moment) stopped the
        // loop, and every later document's original stayed stored, with nothing left to delete it.
        for (String id : own) {
            try {
                blobs.delete(id);
            } catch (RuntimeException e) {
                System.getLogger(Documents.class.getName()).log(System.Logger.Level.WARNING, "the original of deleted "
                        + "document " + id + " could not be deleted: " + e.getMessage());
            }
        }
        // A synced document deleted by hand comes back at the next sync: its item was found unchanged, and it stayed
        // gone until its bytes changed, then came back unasked. Exclude it in the source's settings to keep it out.
        // After the originals, and never failing the delete: a retry finds no document and deletes no original.
        try {
            sourceItems.forgetDocuments(tenant.id(), own);
        } catch (RuntimeException e) {
            System.getLogger(Documents.class.getName()).log(System.Logger.Level.WARNING, "the sync state of "
                    + own.size() + " deleted documents could not be forgotten (they come back when their source "
                    + "items change): " + e.getMessage());
        }
        return own.size();
    }
}
