package io.polyrag.app.api;

import io.polyrag.core.model.KnowledgeBase;
import java.nio.file.Path;
import java.util.List;

/**
 * Ingest files and directories from the local disk.
 *
 * @param paths files and directories
 * @param knowledgeBase target knowledge base; null for the default
 * @param includes globs a walked file must match (empty: every type the parser accepts)
 * @param excludes globs that leave a walked file out
 * @param skipGraph index without extracting entities and relations for the graph and RDF stores
 */
public record PathIngest(List<Path> paths, KnowledgeBase knowledgeBase, List<String> includes,
        List<String> excludes, boolean skipGraph) {
    public PathIngest {
        paths = List.copyOf(paths);
        knowledgeBase = knowledgeBase == null ? KnowledgeBase.DEFAULT : knowledgeBase;
        includes = includes == null ? List.of() : List.copyOf(includes);
        excludes = excludes == null ? List.of() : List.copyOf(excludes);
    }

    public PathIngest(List<Path> paths, KnowledgeBase knowledgeBase, List<String> includes, List<String> excludes) {
        this(paths, knowledgeBase, includes, excludes, false);
    }

    /** Every accepted file of {@code paths} into {@code knowledgeBase}, with the graph. */
    public static PathIngest of(List<Path> paths, KnowledgeBase knowledgeBase) {
        return new PathIngest(paths, knowledgeBase, List.of(), List.of(), false);
    }
}
