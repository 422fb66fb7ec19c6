package io.polyrag.app;

import io.polyrag.core.UnavailableException;
import java.nio.file.Path;

/** Another polyrag process holds the data directory: a command may talk to it instead (its REST API). */
public final class DataDirInUseException extends UnavailableException {
    private static final long serialVersionUID = 1L;
    private final transient Path dataDir;

    DataDirInUseException(Path dataDir, String message) {
        super(message);
        this.dataDir = dataDir;
    }

    /** The directory in use. */
    public Path dataDir() {
        return dataDir;
    }
}
