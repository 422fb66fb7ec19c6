package io.polyrag.core.model;

import java.util.concurrent.atomic.AtomicBoolean;
import java.util.function.BooleanSupplier;

/**
 * Whether a full-text store holds the whole text ({@link WholeText}) of every document version it holds records of —
 * not so for an index written before whole texts were kept, until it is indexed again. Counted when first asked, then
 * again only while it is not so and only when the caller's {@code key} changed (the index's version, or the minute);
 * once every version has one, a store keeps them so. The first count that finds some missing says so in the log,
 * once, with the command that fills them. Safe for concurrent use: one thread counts at a time, and the searches
 * meanwhile take the last answer (none yet: not complete, so passages alone): on a large networked index a count
 * is a scan of every version, and each search that started before the first count ended ran its own.
 */
public final class WholeTextCoverage {
    private static final System.Logger LOG = System.getLogger(WholeTextCoverage.class.getName());
    private final String store;
    private volatile boolean complete;
    private volatile boolean counted;
    private volatile long countedAt;
    private volatile boolean told;
    private final AtomicBoolean counting = new AtomicBoolean();

    /** @param store the store as a user names it in the log ("the full-text index at /data/fulltext") */
    public WholeTextCoverage(String store) {
        this.store = store;
    }

    /** Whether every version has its whole text; {@code count} counts it again when {@code key} is new. */
    public boolean complete(long key, BooleanSupplier count) {
        if (complete || counted && key == countedAt || !counting.compareAndSet(false, true)) {
            return complete;
        }
        try {
            return count(key, count);
        } finally {
            counting.set(false);
        }
    }

    private boolean count(long key, BooleanSupplier count) {
        boolean now;
        try {
            now = count.getAsBoolean();
        } catch (RuntimeException e) {
            // Not counted (a statement cut at the leg's deadline, a dropped connection): passages alone until the
            // key changes. Unrecorded, every following search counted again, each waiting for its leg's deadline.
            countedAt = key;
            counted = true;
            LOG.log(System.Logger.Level.WARNING, "cannot tell whether " + store + " holds every document's whole "
                    + "text (" + e.getMessage() + "): passages are scored alone until it is asked again");
            return false;
        }
        if (!now && !told) {
            told = true;
            LOG.log(System.Logger.Level.WARNING, store + " holds documents written before whole texts were kept: "
                    + "the full-text leg scores passages alone (not by their documents' whole text, "
                    + "fulltext.document.weight) until 'polyrag reindex --modality fulltext --all' has run");
        }
        countedAt = key;
        counted = true;
        complete = now;
        return now;
    }

    /** A key that changes once a minute: for stores that cannot tell cheaply whether they changed. */
    public static long minute() {
        return System.nanoTime() / 60_000_000_000L;
    }
}
