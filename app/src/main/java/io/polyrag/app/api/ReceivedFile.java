package io.polyrag.app.api;

import java.nio.file.Path;

/**
 * A file a front door has written into a staging folder ({@code Uploads#newStagingDir()}) for an ingest.
 *
 * @param name the client's file name, already sanitised
 * @param path where its bytes are
 */
public record ReceivedFile(String name, Path path) {
}
