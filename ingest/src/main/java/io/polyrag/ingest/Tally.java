package io.polyrag.ingest;

import io.polyrag.core.model.IndexedDocument;
import io.polyrag.core.model.IngestReport;
import io.polyrag.core.model.ItemError;
import io.polyrag.core.model.JobProgress;
import io.polyrag.core.model.SearchScope;
import io.polyrag.core.port.Catalog;
import io.polyrag.core.port.ProgressListener;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;

/**
 * An ingest's running counts. Its stages run on three threads (parsing, embedding, writing), so every method holds the
 * tally's lock, and the listener hears one progress at a time.
 */
final class Tally {
    private static final int MAX_ERRORS = 1000;

    private final ProgressListener listener;
    private final List<String> stores;
    private final long startNanos = System.nanoTime();
    private String stage = "starting";
    private int total;
    private int processed;
    private int added;
    private int updated;
    private int unchanged;
    private int failed;
    private int chunks;
    private final List<ItemError> errors = new ArrayList<>();
    private final List<IndexedDocument> indexed = new ArrayList<>();
    private final Map<String, IndexedDocument> seenContent = new HashMap<>();
    private int duplicates;
    private IndexedDocument firstDuplicate;
    private int relations;
    private long extractionTokens;
    private long contextTokens;
    private final List<String> warnings = new ArrayList<>();

    Tally(int total, List<String> stores, ProgressListener listener) {
        this.total = total;
        this.stores = stores;
        this.listener = listener;
    }

    synchronized void stage(String s) {
        if (!s.equals(stage)) {
            stage = s;
            publish();
        }
    }

    synchronized void added(IndexedDocument d, int chunkCount) {
        added++;
        indexed(d);
        chunks += chunkCount;
    }

    synchronized void updated(IndexedDocument d, int chunkCount) {
        updated++;
        indexed(d);
        chunks += chunkCount;
    }

    synchronized void unchanged(IndexedDocument d) {
        unchanged++;
        indexed(d);
    }

    /** An input left out because its content is indexed under another uri: unchanged, and counted for a warning. */
    synchronized void duplicate(IndexedDocument d) {
        duplicates++;
        // Said in the job's progress too, naming one: a job of nothing but duplicates ended "succeeded, unchanged 1",
        // and a POST /v1/documents answered a document id that never came to exist.
        firstDuplicate = firstDuplicate != null ? firstDuplicate : d;
        unchanged(d);
    }

    /** Records the content of an input about to be written, so a later input with the same content is a duplicate. */
    synchronized void remember(String fingerprint, IndexedDocument d) {
        seenContent.putIfAbsent(fingerprint, d);
    }

    /** An earlier input of this ingest with this content under another uri. */
    synchronized Optional<IndexedDocument> seen(String fingerprint, String uri) {
        IndexedDocument d = seenContent.get(fingerprint);
        return d == null || d.uri().equals(uri) ? Optional.empty() : Optional.of(d);
    }

    private void indexed(IndexedDocument d) {
        processed++;
        // Every one: jobs act on each document afterwards (an upload keeps each original); the wire lists a part.
        indexed.add(d);
        publish();
    }

    /** The input itself was refused (unreadable type, bytes that do not parse, no text). */
    synchronized void failed(String source, String reason) {
        failed(source, reason, false);
    }

    /** An input that failed, {@code retry} when it may succeed later (see {@link ItemError#retry()}). */
    synchronized void failed(String source, String reason, boolean retry) {
        failed++;
        processed++;
        if (errors.size() < MAX_ERRORS) {
            errors.add(new ItemError(source, reason, retry));
        }
        publish();
    }

    /** Model tokens contextual retrieval spent. */
    synchronized void situated(long tokens) {
        contextTokens += tokens;
    }

    synchronized void extracted(int relationCount, long tokens) {
        relations += relationCount;
        extractionTokens += tokens;
    }

    /**
     * Warnings an ingest keeps, the others counted: one a file (figures left out of 2,000 slide decks) was written
     * whole with every progress write and held by every job event, hundreds of kilobytes each.
     */
    static final int MAX_WARNINGS = 50;
    /** The warnings left out, by hash (each counted once; bounded, so past it a few repeats may count twice). */
    private final Set<Integer> leftOut = new HashSet<>();
    private int moreWarnings;

    synchronized void warn(String warning) {
        if (warnings.contains(warning)) {
            return;
        }
        if (warnings.size() < MAX_WARNINGS) {
            warnings.add(warning);
        } else if (leftOut.size() >= 10_000 || leftOut.add(warning.hashCode())) {
            moreWarnings++;
        }
    }

    /** The warnings kept, and a line counting those left out. */
    private List<String> keptWarnings() {
        if (moreWarnings == 0) {
            return warnings;
        }
        List<String> out = new ArrayList<>(warnings);
        out.add(moreWarnings + " more warnings, not listed (the first " + MAX_WARNINGS + " are)");
        return out;
    }

    synchronized JobProgress progress() {
        return JobProgress.at(stage).total(total).processed(processed).added(added).updated(updated)
                .unchanged(unchanged).failed(failed).chunks(chunks).storesWritten(stores)
                .errors(errors.size() > 100 ? errors.subList(0, 100) : errors).relations(relations)
                .extractionTokens(extractionTokens).warnings(allWarnings()).build();
    }

    synchronized IngestReport report() {
        return IngestReport.builder().counts(total, added, updated, unchanged, failed).chunks(chunks)
                .tookMs((System.nanoTime() - startNanos) / 1_000_000).errors(errors).relations(relations)
                .extractionTokens(extractionTokens).warnings(allWarnings()).indexed(indexed)
                .contextTokens(contextTokens).build();
    }

    private List<String> allWarnings() {
        if (duplicates == 0) {
            return keptWarnings();
        }
        List<String> out = new ArrayList<>(keptWarnings());
        out.add(duplicates + (duplicates == 1 ? " input was" : " inputs were") + " left out as duplicates of "
                + "documents indexed under another name (" + firstDuplicate.uri() + ": " + firstDuplicate.outcome()
                + (duplicates > 1 ? ", …" : "") + "); set POLYRAG_INGEST_DUPLICATES=allow to index them anyway");
        return out;
    }

    private void publish() {
        try {
            listener.onProgress(progress());
        } catch (RuntimeException e) {
            System.getLogger(Tally.class.getName()).log(System.Logger.Level.WARNING, "progress listener failed", e);
        }
    }

    /**
     * Whether the content is already indexed, or was seen earlier in this ingest, under another uri of the knowledge
     * base; if so it is recorded as a duplicate (unchanged: nothing to write) and a warning says how to index it.
     */
    boolean duplicate(Catalog catalog, IngestInput input, String kb, String fingerprint) {
        Optional<IndexedDocument> same = seen(fingerprint, input.uri());
        if (same.isEmpty()) {
            same = catalog.documentsWithContent(fingerprint, new SearchScope(Set.of(kb)))
                    .stream().filter(d -> !d.uri().equals(input.uri())).findFirst()
                    .map(d -> new IndexedDocument(d.uri(), d.id(), d.visibleVersion(), "indexed"));
        }
        if (same.isEmpty()) {
            return false;
        }
        duplicate(new IndexedDocument(input.uri(), same.get().documentId(), same.get().version(),
                "duplicate of " + same.get().uri()));
        return true;
    }
}
