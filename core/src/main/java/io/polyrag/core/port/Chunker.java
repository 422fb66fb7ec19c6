package io.polyrag.core.port;

import io.polyrag.core.model.ChunkDraft;
import io.polyrag.core.model.ParsedDocument;
import java.util.List;

/**
 * Cuts a parsed document into chunks sized for retrieval and the embedding model's window.
 *
 * <p>Deterministic: the same document always gives the same chunks. Chunks come in reading order, none is empty,
 * and a document with no text gives none. Stateless and safe for concurrent use.
 */
public interface Chunker {

    List<ChunkDraft> chunk(ParsedDocument document);
}
