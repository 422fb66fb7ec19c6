package io.polyrag.app.api;

/**
 * A file the upload staging accepted and keeps until it is ingested (or expires).
 *
 * @param id the staged file's id, to pass to {@code Uploads#ingestStaged}
 * @param name its sanitised name
 * @param size bytes
 * @param mediaType the type detected from its content
 */
public record StagedUpload(String id, String name, long size, String mediaType) {
}
