package io.polyrag.ingest;

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
 */
public record IngestInput(String uri, String name, long size, String mediaType, Content content) {

    /** Reads an input's bytes; may fail with an I/O error, which fails only this input. */
    @FunctionalInterface
    public interface Content {
        byte[] read() throws IOException;
    }

    public static IngestInput ofText(String uri, String name, String text) {
        byte[] bytes = text.getBytes(StandardCharsets.UTF_8);
        return new IngestInput(uri, name, bytes.length, null, () -> bytes);
    }
}
