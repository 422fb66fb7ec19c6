package io.polyrag.app;

import io.polyrag.core.model.JobInfo;
import io.polyrag.core.model.JobStatus;
import io.polyrag.core.model.Tenant;
import io.polyrag.core.port.JobStore;
import java.util.ArrayList;
import java.util.Collection;
import java.util.List;
import java.util.Optional;
import java.util.concurrent.ConcurrentHashMap;

/**
 * Whether a tenant has documents still on their way into the stores, for searches to say so: a search during the
 * first ingest answers with few or no hits, and without a word that looks like "nothing matched". The job store is
 * read at most once a second per tenant when nothing is being indexed (four times while something is), and again
 * after a submit, so a search pays a map lookup.
 */
final class Indexing {
    private static final long FRESH_NANOS = 1_000_000_000L;
    /** Unfinished jobs looked at (the oldest first): more say no more than "many". */
    private static final int UNFINISHED_JOBS = 200;

    /** One ingest job queued or running: its knowledge base (stored name; null: not known), what it has left. */
    private record Active(String knowledgeBase, long pending, boolean sync) {
    }

    private record Seen(long atNanos, List<Active> active) {
    }

    private final JobStore jobs;
    private final ConcurrentHashMap<String, Seen> seen = new ConcurrentHashMap<>();

    Indexing(JobStore jobs) {
        this.jobs = jobs;
    }

    /**
     * A warning when ingest jobs of {@code tenant} into one of {@code knowledgeBases} (stored names; empty: any) are
     * queued or running, naming how many documents they hold. Another knowledge base's upload or sync is no reason
     * for this search to have fewer hits: every search of "hr" said "9,000 documents are still being indexed" while
     * a source of "wiki" was merely being compared with its listing.
     */
    Optional<String> warning(Tenant tenant, Collection<String> knowledgeBases) {
        long now = System.nanoTime();
        Seen s = seen.get(tenant.id());
        // Quiet is remembered for a second, a warning a quarter of one (so it ends soon after the jobs): under load
        // during an ingest, searches do not each read the job store.
        if (s == null || now - s.atNanos() > (s.active().isEmpty() ? FRESH_NANOS : FRESH_NANOS / 4)) {
            s = new Seen(now, read(tenant));
            seen.put(tenant.id(), s);
        }
        List<Active> mine = s.active().stream().filter(a -> knowledgeBases.isEmpty() || a.knowledgeBase() == null
                || knowledgeBases.contains(a.knowledgeBase())).toList();
        return Optional.ofNullable(warning(mine));
    }

    /** A job of {@code tenant} was submitted in this process: the next search looks again. */
    void changed(Tenant tenant) {
        seen.remove(tenant.id());
    }

    private List<Active> read(Tenant tenant) {
        List<Active> out = new ArrayList<>();
        for (JobInfo j : jobs.unfinished(tenant.id(), UNFINISHED_JOBS)) {
            boolean unfinished = j.status() == JobStatus.QUEUED || j.status() == JobStatus.RUNNING;
            // Not a back-fill (searchable as it goes) nor a tuning (its counts are searches, not documents).
            if (unfinished && !j.kind().equals(Backfill.KIND) && !j.kind().equals(KbFusion.KIND)) {
                boolean sync = j.kind().equals(SyncJob.KIND);
                // A sync's total is the items it lists, most of them unchanged: no count of documents to index.
                long pending = sync || j.progress() == null ? 0
                        : Math.max(0, j.progress().total() - j.progress().processed());
                out.add(new Active(j.knowledgeBase(), pending, sync));
            }
        }
        return List.copyOf(out);
    }

    private static String warning(List<Active> active) {
        if (active.isEmpty()) {
            return null;
        }
        long pending = active.stream().mapToLong(Active::pending).sum();
        long syncs = active.stream().filter(Active::sync).count();
        String jobs = active.size() - syncs > 0 ? (active.size() - syncs) + (active.size() - syncs == 1
                ? " ingest job" : " ingest jobs") + (syncs > 0 ? " and " : "") : "";
        jobs += syncs > 0 ? syncs + (syncs == 1 ? " sync" : " syncs") : "";
        return (pending > 0 ? pending + (pending == 1 ? " document is" : " documents are") : "documents may be")
                + " still being indexed into the knowledge bases searched (" + jobs + " queued or running): they are "
                + "not searchable until indexed; GET /v1/jobs shows their progress";
    }
}
