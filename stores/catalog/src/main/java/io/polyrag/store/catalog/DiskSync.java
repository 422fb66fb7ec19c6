package io.polyrag.store.catalog;

import java.sql.Connection;
import java.sql.SQLException;
import java.sql.Statement;
import java.util.concurrent.atomic.AtomicLong;
import java.util.concurrent.locks.ReentrantLock;
import org.h2.engine.SessionLocal;
import org.h2.jdbc.JdbcConnection;

/**
 * {@code POLYRAG_DURABILITY=fsync} for the embedded catalog: a transaction that wrote is on the disk, not only in the
 * operating system's cache, before its commit returns — and no read answers with a commit that is not there yet.
 * H2 with {@code WRITE_DELAY=0} writes each commit to its file but never forces the file (traced: no fsync of
 * {@code polyrag.mv.db} during an acknowledged ingest), so a power cut could take the last acknowledged commits;
 * {@code CHECKPOINT SYNC} stores what is unsaved and forces the file.
 *
 * <p>Group commit: syncs are numbered as they start; a commit notes how many had started when it returned, and any
 * sync started after that covers it, so of several threads committing at once one forces the file and the others
 * return when it is done.
 *
 * <p>Reads: H2 shows a commit to other sessions as soon as it returns, before the committer's sync — a job's
 * "succeeded" could be read, and answered to a client, while a power cut would still take it. So a read that ends
 * while some commit is not yet covered (or is between its commit and noting it) waits for a sync started after it
 * — the one in progress, usually; PostgreSQL orders it the same way, making a commit visible only after its WAL is
 * flushed. With nothing pending, a read costs two volatile reads and forces nothing.
 */
final class DiskSync {
    /** Forces what is committed to the disk: {@code CHECKPOINT SYNC}, or a test's stand-in. */
    interface Force {
        void run(Connection c) throws SQLException;
    }

    private static final Force CHECKPOINT_SYNC = c -> {
        try (Statement s = c.createStatement()) {
            s.execute("CHECKPOINT SYNC");
        }
    };

    private final Force force;
    /** Syncs started, and finished (every sync up to {@code done} returned; written under {@code syncing}). */
    private final AtomicLong started = new AtomicLong();
    private volatile long done;
    /** Commits under way and not yet noted; the newest noted commit's sync number (it needs one past it). */
    private final AtomicLong committing = new AtomicLong();
    private final AtomicLong newest = new AtomicLong(-1);
    private final AtomicLong syncs = new AtomicLong();

    DiskSync() {
        this(CHECKPOINT_SYNC);
    }

    DiskSync(Force force) {
        this.force = force;
    }

    /**
     * Whether the transaction on {@code c} changed anything: read-only work (every search's catalog join) needs no
     * sync. Asked of H2's session; anything else, or a session that cannot say, counts as a write.
     */
    static boolean wrote(Connection c) {
        try {
            if (c.isWrapperFor(JdbcConnection.class)
                    && c.unwrap(JdbcConnection.class).getSession()
                            instanceof SessionLocal local) {
                return local.hasPendingTransaction();
            }
        } catch (SQLException | RuntimeException e) {
            return true;
        }
        return true;
    }

    /**
     * Commits the transaction on {@code c} that wrote and returns once it is on the disk. A commit that throws is
     * still noted (it may have reached the file) but not waited for: it is not acknowledged.
     */
    void commit(Connection c) throws SQLException {
        committing.incrementAndGet();
        long after;
        try {
            c.commit();
        } finally {
            after = started.get();
            newest.accumulateAndGet(after, Math::max);
            committing.decrementAndGet();
        }
        try {
            syncAfter(c, after);
        } catch (SQLException e) {
            throw new Jdbc.AfterCommit(e);
        }
    }

    /**
     * Called on {@code c} once a read-only transaction ended: returns once every commit it could have seen is on the
     * disk. Anything still committing, or noted and not yet covered, is waited for by a sync started now.
     */
    void read(Connection c) throws SQLException {
        if (committing.get() == 0 && newest.get() < done) {
            return;
        }
        syncAfter(c, started.get());
    }

    /** Returns once a sync started after {@code after} syncs had started has finished, running one if needed. */
    private void syncAfter(Connection c, long after) throws SQLException {
        // A lock, not synchronized: a virtual thread waiting to enter a monitor pins its carrier (JDK 21) for as long
        // as the fsync takes, stalling unrelated requests on a small host.
        syncing.lock();
        try {
            if (done > after) {
                return;
            }
            long number = started.incrementAndGet();
            force.run(c);
            syncs.incrementAndGet();
            done = number;
        } finally {
            syncing.unlock();
        }
    }

    private final ReentrantLock syncing = new ReentrantLock();

    /** How many times the file was forced (tests, the benchmark's report). */
    long syncs() {
        return syncs.get();
    }
}
