package io.polyrag.app;

import java.nio.file.Path;
import java.util.List;

/** Requests the facade takes from front doors. */
public final class Requests {
    private Requests() {
    }

    /**
     * Ingest files and directories from the local disk.
     *
     * @param paths files and directories
     * @param knowledgeBase target knowledge base, null for the default
     * @param includes globs a walked file must match (empty: every type the parser accepts)
     * @param excludes globs that leave a walked file out
     * @param skipGraph index without extracting entities and relations for the graph and RDF stores
     */
    public record PathIngest(List<Path> paths, String knowledgeBase, List<String> includes, List<String> excludes,
            boolean skipGraph) {
        public PathIngest {
            paths = List.copyOf(paths);
            includes = includes == null ? List.of() : List.copyOf(includes);
            excludes = excludes == null ? List.of() : List.copyOf(excludes);
        }

        public PathIngest(List<Path> paths, String knowledgeBase, List<String> includes, List<String> excludes) {
            this(paths, knowledgeBase, includes, excludes, false);
        }
    }

    /**
     * Ingest one text given inline.
     *
     * @param text the content
     * @param title its title, or null
     * @param uri its identity; null derives one from the content, so the same text is the same document
     * @param format {@code text}, {@code markdown} or {@code html}; null means text
     * @param knowledgeBase target knowledge base, null for the default
     * @param skipGraph index without extracting entities and relations for the graph and RDF stores
     */
    public record TextIngest(String text, String title, String uri, String format, String knowledgeBase,
            boolean skipGraph) {
        public TextIngest(String text, String title, String uri, String format, String knowledgeBase) {
            this(text, title, uri, format, knowledgeBase, false);
        }
    }

    /**
     * A file a front door has staged in {@link Polyrag#newStagingDir()} for an ingest job.
     *
     * @param name the client's file name, already sanitised
     * @param path where its bytes are
     */
    public record StagedFile(String name, Path path) {
    }
}
