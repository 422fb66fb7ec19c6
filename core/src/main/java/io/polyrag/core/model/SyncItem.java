package io.polyrag.core.model;

/**
 * What a sync last saw of one item of a source.
 *
 * @param item its stable id within the source (a path relative to the root; a web page's URL)
 * @param modifiedMs its modification time, epoch milliseconds (a web page's Last-Modified, 0 when it sends none)
 * @param sizeBytes its size
 * @param hash SHA-256 of its raw bytes, hex (not of the parsed text, so a parser upgrade changes nothing)
 * @param documentId the document it became
 * @param validator what a conditional request sends back to learn whether the item changed: a web page's ETag;
 *     empty for files
 */
public record SyncItem(String item, long modifiedMs, long sizeBytes, String hash, String documentId,
        String validator) {
    public SyncItem {
        validator = validator == null ? "" : validator;
    }

    public SyncItem(String item, long modifiedMs, long sizeBytes, String hash, String documentId) {
        this(item, modifiedMs, sizeBytes, hash, documentId, "");
    }
}
