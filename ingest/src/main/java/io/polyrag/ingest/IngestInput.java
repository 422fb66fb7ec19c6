package io.polyrag.ingest;

import io.polyrag.core.model.Ids;
import java.io.IOException;
import java.nio.charset.StandardCharsets;

/**
 * One thing to ingest, read lazily so a large directory is never held in memory at once.
 *
 * @param uri the document's identity within its knowledge base
 * @param name a file name, for type detection and messages
 * @param size its size in bytes if known beforehand, else -1
 * @param mediaType the declared media type, or null
 * @param content reads the bytes
 * @param declared what the caller declared about it beside its bytes that changes how it is indexed (an inline text's
 *     title and format), or null: the same bytes with another declaration are a change, not "unchanged"
 * @param title the title it is indexed under, whatever the parser finds; null for the parser's
 */
public record IngestInput(String uri, String name, long size, String mediaType, Content content, String declared,
        String title) {

    public IngestInput(String uri, String name, long size, String mediaType, Content content, String declared) {
        this(uri, name, size, mediaType, content, declared, null);
    }

    public IngestInput(String uri, String name, long size, String mediaType, Content content) {
        this(uri, name, size, mediaType, content, null, null);
    }

    /** Reads an input's bytes; may fail with an I/O error, which fails only this input. */
    @FunctionalInterface
    public interface Content {
        byte[] read() throws IOException;

        /**
         * At most {@code maxBytes} of the content (a source that can stop early does: a file growing since it was
         * listed was read whole, up to 2 GB, before its size was judged).
         */
        default byte[] read(long maxBytes) throws IOException {
            return read();
        }
    }

    /**
     * A fingerprint of the bytes with what the caller declared beside them: an inline text's title and format are
     * part of what was indexed (its title heads every chunk's index text), and the same text sent again under a new
     * title was "unchanged" and kept the old one.
     */
    public String withDeclared(String fingerprint) {
        return declared == null ? fingerprint : Ids.sha256Hex((fingerprint + ";declared=" + declared)
                .getBytes(StandardCharsets.UTF_8));
    }

    public static IngestInput ofText(String uri, String name, String text) {
        return ofText(uri, name, text, null);
    }

    /**
     * An inline text with the title it is indexed under (null: the one the parser finds). Given as a file name only,
     * a title was cut at its last '/' ("TCP/IP tuning" became "IP tuning") and lost to a Markdown heading.
     */
    public static IngestInput ofText(String uri, String name, String text, String title) {
        byte[] bytes = text.getBytes(StandardCharsets.UTF_8);
        return new IngestInput(uri, name, bytes.length, null, () -> bytes, title == null ? name : name + "\n" + title,
                title);
    }
}
