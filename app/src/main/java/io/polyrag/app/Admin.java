package io.polyrag.app;

import io.polyrag.app.api.Status;
import io.polyrag.core.model.CheckReport;
import io.polyrag.core.model.SearchScope;
import io.polyrag.ingest.StoreCheck;
import java.util.ArrayList;
import java.util.List;

/** The server's own state: status, readiness, and the consistency check of the catalog against every store. */
public final class Admin {
    private final Components components;
    private volatile List<String> problems;

    Admin(Components components, List<String> problems) {
        this.components = components;
        this.problems = List.copyOf(problems);
    }

    public Status status() {
        return new Status(components.searcher.modalities(), components.catalog.countDocuments(SearchScope.ALL),
                components.pipeline.stores().sizes(), components.embedder == null ? null
                        : components.embedder.modelId(), components.embedder == null ? 0
                        : components.embedder.dimension(), problems);
    }

    /**
     * What keeps this server from serving correctly now, one line each naming the fix; empty when ready. Besides the
     * problems found when it opened or by the last {@link #check}, every store and the catalog are read and the
     * embedding model embeds a word (a language model is not called: it is optional and billed).
     */
    public List<String> readiness() {
        List<String> out = new ArrayList<>(problems);
        try {
            components.catalog.countDocuments(SearchScope.ALL);
        } catch (RuntimeException e) {
            out.add("the catalog cannot be read: " + e.getMessage());
        }
        components.pipeline.stores().probe().forEach((store, error) -> out.add("the " + store + " store cannot be "
                + "read: " + error));
        if (components.embedder != null) {
            try {
                components.embedder.embedQuery("ready");
            } catch (RuntimeException e) {
                out.add("the embedding model " + components.embedder.modelId() + " cannot embed: " + e.getMessage());
            }
        }
        return out;
    }

    /**
     * Compares the catalog with every enabled store: documents, records per version, orphan records (of replaced,
     * deleted or never-published versions) and versions a store lacks. With {@code repair}, orphans are removed and
     * what a store lacks is re-indexed from the catalog's chunk text (no re-parse). The server's problems are updated
     * from the result.
     */
    public CheckReport check(boolean repair) {
        CheckReport r = new StoreCheck(components.pipeline).run(repair ? StoreCheck.Repair.ALL : StoreCheck.Repair.NONE);
        problems = List.copyOf(Recovery.problems(r));
        return r;
    }
}
