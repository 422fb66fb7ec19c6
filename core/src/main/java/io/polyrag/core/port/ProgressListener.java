package io.polyrag.core.port;

import io.polyrag.core.model.JobProgress;

/** Receives an ingest's progress after every document and at every stage change. Must be cheap and not throw. */
@FunctionalInterface
public interface ProgressListener {
    ProgressListener NONE = p -> { };

    void onProgress(JobProgress progress);
}
