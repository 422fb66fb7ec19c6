package io.polyrag.ingest;

import io.polyrag.core.model.Chunk;
import io.polyrag.core.model.ChunkDraft;
import io.polyrag.core.model.ParsedDocument;
import java.util.List;

/** One input read, parsed and chunked, waiting in a batch to be embedded and written. */
record Prepared(IngestInput input, String documentId, String fingerprint, long size,
        ParsedDocument parsed, List<ChunkDraft> drafts, boolean replacing, List<PreparedFigure> figures) {

    /** The text a draft of this document is embedded and full-text indexed from. */
    String indexText(ChunkDraft d) {
        return Chunk.indexText(parsed.title(), d.headingPath(), d.text());
    }

/** Document {@code d}'s chunk {@code c}'s context, or null. */
    static String context(List<List<String>> contexts, int d, int c) {
        if (contexts == null || contexts.get(d) == null || c >= contexts.get(d).size()) {
            return null;
        }
        return contexts.get(d).get(c);
    }
}
