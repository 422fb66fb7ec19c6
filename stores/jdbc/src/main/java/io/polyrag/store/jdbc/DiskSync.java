package io.polyrag.store.jdbc;

import java.sql.Connection;
import java.sql.SQLException;
import java.sql.Statement;
import java.util.concurrent.atomic.AtomicLong;

/**
 * {@code POLYRAG_DURABILITY=fsync} for the embedded catalog: a transaction that wrote is on the disk, not only in the
 * operating system's cache, before its commit returns. H2 with {@code WRITE_DELAY=0} writes each commit to its file
 * but never forces the file (traced: no fsync of {@code polyrag.mv.db} during an acknowledged ingest), so a power
 * cut could take the last acknowledged commits; {@code CHECKPOINT SYNC} stores what is unsaved and forces the file.
 *
 * <p>Group commit: each committer takes a ticket after its commit; a sync started after a ticket was taken covers
 * that commit, so of several threads committing at once one forces the file and the others return when it is done.
 */
final class DiskSync {
    private final AtomicLong committed = new AtomicLong();
    private final AtomicLong syncs = new AtomicLong();
    private long synced; // guarded by this

    /**
     * Whether the transaction on {@code c} changed anything: read-only work (every search's catalog join) needs no
     * sync. Asked of H2's session; anything else, or a session that cannot say, counts as a write.
     */
    static boolean wrote(Connection c) {
        try {
            if (c.isWrapperFor(org.h2.jdbc.JdbcConnection.class)
                    && c.unwrap(org.h2.jdbc.JdbcConnection.class).getSession()
                            instanceof org.h2.engine.SessionLocal local) {
                return local.hasPendingTransaction();
            }
        } catch (SQLException | RuntimeException e) {
            return true;
        }
        return true;
    }

    /** Called on {@code c} right after its transaction committed: returns once that commit is on the disk. */
    void committed(Connection c) throws SQLException {
        long ticket = committed.incrementAndGet();
        synchronized (this) {
            if (synced >= ticket) {
                return;
            }
            long upTo = committed.get();
            try (Statement s = c.createStatement()) {
                s.execute("CHECKPOINT SYNC");
            }
            syncs.incrementAndGet();
            synced = upTo;
        }
    }

    /** How many times the file was forced (tests, the benchmark's report). */
    long syncs() {
        return syncs.get();
    }
}
