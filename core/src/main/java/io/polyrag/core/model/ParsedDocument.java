package io.polyrag.core.model;

import java.util.List;
import java.util.Objects;

/**
 * A parser's output: the document's plain text and its structure.
 *
 * @param title the document's title (from metadata, the first heading, or the file name), never null
 * @param text the whole extracted text; block offsets point into it
 * @param blocks the document's blocks in reading order
 * @param mediaType the media type the parser treated the bytes as
 */
public record ParsedDocument(String title, String text, List<Block> blocks, String mediaType, List<String> links) {
    /** The longest title kept, in characters; a longer one is cut with "…". */
    public static final int MAX_TITLE = 300;

    public ParsedDocument {
        Objects.requireNonNull(title, "title");
        // The title is repeated in every chunk's indexed and embedded text: a megabyte <title> cost gigabytes.
        title = Ids.clip(title, MAX_TITLE);
        Objects.requireNonNull(text, "text");
        blocks = List.copyOf(blocks);
        Objects.requireNonNull(mediaType, "mediaType");
        links = links == null ? List.of() : List.copyOf(links);
    }

    public ParsedDocument(String title, String text, List<Block> blocks, String mediaType) {
        this(title, text, blocks, mediaType, List.of());
    }
}
