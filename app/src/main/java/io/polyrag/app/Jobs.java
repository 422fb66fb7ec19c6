package io.polyrag.app;

import io.polyrag.core.model.JobInfo;
import io.polyrag.core.model.Tenant;

/** A tenant's background jobs: read one back by id (another tenant's id is not found). */
public final class Jobs {
    private final JobEngine engine;
    private final Tenant tenant;

    Jobs(JobEngine engine, Tenant tenant) {
        this.engine = engine;
        this.tenant = tenant;
    }

    /** The job with this id. */
    public JobInfo get(String id) {
        return engine.get(tenant, id);
    }
}
