package io.polyrag.app.api;

import io.polyrag.core.model.ItemError;
import java.util.List;

/**
 * What staging did with each file.
 *
 * @param accepted files checked and kept, ready to ingest
 * @param skipped files refused, each with a specific reason
 */
public record StagingReport(List<StagedUpload> accepted, List<ItemError> skipped) {
    public StagingReport {
        accepted = List.copyOf(accepted);
        skipped = List.copyOf(skipped);
    }
}
