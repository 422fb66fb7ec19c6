package io.polyrag.app;

import io.polyrag.app.api.Limits;
import io.polyrag.core.InvalidInputException;
import io.polyrag.core.NotFoundException;
import io.polyrag.core.model.Ids;
import io.polyrag.core.model.JobInfo;
import io.polyrag.core.model.Tenant;
import java.time.Duration;
import java.util.List;

/** A tenant's background jobs: list, read one back by id (another tenant's id is not found), cancel, follow. */
public final class Jobs {
    private final JobEngine engine;
    private final Tenant tenant;

    Jobs(JobEngine engine, Tenant tenant) {
        this.engine = engine;
        this.tenant = tenant;
    }

    /** The job with this id. */
    public JobInfo get(String id) {
        return shown(visible(engine.get(tenant, id)));
    }

    /**
     * The operator's back-fills run as local mode: a key's tenant that adopted local mode's data neither sees nor
     * cancels them (their counts are the whole server's), as for any other tenant.
     */
    private boolean operatorOnly(JobInfo j) {
        return !tenant.name().isEmpty() && Backfill.KIND.equals(j.kind());
    }

    private JobInfo visible(JobInfo j) {
        if (operatorOnly(j)) {
            throw new NotFoundException("no job '" + Ids.abbreviate(j.id(), 64)
                    + "'");
        }
        return j;
    }

    /** Its knowledge base as the tenant names it (no namespace). */
    private JobInfo shown(JobInfo j) {
        return j.knowledgeBase() == null ? j : j.withKnowledgeBase(tenant.show(j.knowledgeBase()));
    }

    /** The tenant's jobs, newest first. */
    public List<JobInfo> list(int offset, int limit) {
        if (offset < 0 || limit < 1 || limit > Limits.MAX_PAGE) {
            throw new InvalidInputException("offset must be >= 0 and limit in [1, "
                    + Limits.MAX_PAGE + "], got " + offset + " and " + limit);
        }
        // The operator's jobs a tenant may not see are left out by the query, before the page is cut: filtered
        // after, a page of a tenant that adopted local mode's data could come back short or empty mid-list.
        return engine.list(tenant, offset, limit, tenant.name().isEmpty() ? null : Backfill.KIND).stream()
                .map(this::shown).toList();
    }

    /**
     * Cancels a job: a queued one ends canceled at once, a running one stops before its next file (what it indexed
     * stays indexed). A finished job is a conflict.
     */
    public JobInfo cancel(String id) {
        visible(engine.get(tenant, id));
        return shown(engine.cancel(tenant, id));
    }

    /**
     * The events a subscriber is shown, and the newest id read: the next wait starts after it, so events it may not
     * see (an operator's back-fill) are passed over, not returned again at once forever (a silent busy loop).
     */
    public record Events(List<JobEvents.Event> shown, long lastId) {
    }

    /**
     * The tenant's job events after {@code afterId}, waiting up to {@code wait} for one; none shown when the wait ran
     * out (send a heartbeat) or the server is closing ({@link #closing()}).
     */
    public Events events(long afterId, Duration wait) throws InterruptedException {
        List<JobEvents.Event> read = engine.events().after(tenant, afterId, wait);
        // The newest id read, even below afterId: an id this process never issued (another replica's) is answered
        // with the events kept, and the stream goes on from them. Keeping the larger id replayed them at once on
        // every read after, for as long as the client stayed.
        long last = read.stream().mapToLong(JobEvents.Event::id).max().orElse(afterId);
        return new Events(read.stream().filter(e -> e.job() == null || !operatorOnly(e.job())).map(e ->
                new JobEvents.Event(e.id(), e.tenant(), e.type(), e.job() == null ? null : shown(e.job()))).toList(),
                last);
    }

    /** The newest event id now: where a subscriber without a Last-Event-ID starts. */
    public long lastEventId() {
        return engine.events().lastId(tenant);
    }

    /** Whether the server is closing (event streams end). */
    public boolean closing() {
        return engine.events().closed();
    }
}
