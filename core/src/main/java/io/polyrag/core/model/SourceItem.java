package io.polyrag.core.model;

import java.util.Objects;

/**
 * One input to ingest: bytes with a name and a uri.
 *
 * @param uri the document's identity within its knowledge base ({@code file:///…}, {@code upload:name}, …)
 * @param name a file name, used to pick a parser and for messages
 * @param content the bytes
 * @param mediaType the media type the caller declared, or null to detect it
 * @param title the title it is indexed under whatever the parser finds ("" for none); null for the parser's
 */
public record SourceItem(String uri, String name, byte[] content, String mediaType, String title) {
    public SourceItem {
        Objects.requireNonNull(uri, "uri");
        Objects.requireNonNull(name, "name");
        Objects.requireNonNull(content, "content");
    }

    public SourceItem(String uri, String name, byte[] content, String mediaType) {
        this(uri, name, content, mediaType, null);
    }
}
