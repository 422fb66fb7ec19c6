package io.polyrag.core.model;

/**
 * What a sync last saw of one item of a source.
 *
 * @param item its stable id within the source (a path relative to the root)
 * @param modifiedMs its modification time, epoch milliseconds
 * @param sizeBytes its size
 * @param hash SHA-256 of its raw bytes, hex (not of the parsed text, so a parser upgrade changes nothing)
 * @param documentId the document it became
 */
public record SyncItem(String item, long modifiedMs, long sizeBytes, String hash, String documentId) {
}
