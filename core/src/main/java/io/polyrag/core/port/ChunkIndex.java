package io.polyrag.core.port;

import io.polyrag.core.model.DocumentVersion;
import io.polyrag.core.model.StoreRecord;
import java.util.Collection;
import java.util.List;
import java.util.Map;

/**
 * What every chunk index (vector, full-text) shares: writes keyed by chunk id, deletes by document version.
 *
 * <p>Thread-safety: implementations are safe for concurrent use; searches may run while a write is in progress and
 * see either the state before it or after it. Writes are durable when the call returns. Empty collections are a
 * no-op. Failures are {@link io.polyrag.core.StoreException}s that keep the backend's cause.
 */
public interface ChunkIndex extends AutoCloseable {

    /** Inserts or replaces the records by chunk id, durably, in one step: all are visible to search, or none. */
    void upsert(List<StoreRecord> records);

    /** Removes every record of the given document versions; versions not present are ignored. */
    void delete(Collection<DocumentVersion> versions);

    /** Removes every record of the given documents, whatever their version. */
    void deleteDocuments(Collection<String> documentIds);

    /** Records currently stored, for status and tests. */
    long size();

    /**
     * Fails, saying why, when the store cannot be read; for readiness probes, every few seconds. By default a {@link
     * #size()}; a networked store overrides it with a read of one record, not a count of every one.
     */
    default void ping() {
        size();
    }

    /**
     * Every document version this index holds records of, with how many records, so a check can compare the index
     * with the catalog (orphans of versions no longer visible, versions missing records). The map iterates in no
     * particular order.
     */
    Map<DocumentVersion, Long> versions();

    /**
     * How many records this index holds for one document version, read live from the index (0 when none). The
     * default walks {@link #versions()}; indexes that can look one version up directly override it.
     */
    default long records(DocumentVersion version) {
        return versions().getOrDefault(version, 0L);
    }

    /** Releases files and threads. Idempotent. */
    @Override
    void close();
}
