package io.polyrag.store.catalog;

import io.polyrag.core.StorageProblems;
import io.polyrag.core.StoreException;
import java.sql.Connection;
import java.sql.SQLException;
import java.time.Clock;
import java.time.OffsetDateTime;
import java.time.ZoneOffset;
import java.util.function.Supplier;
import javax.sql.DataSource;

/** Runs units of work on a pooled connection, in one transaction each, translating SQL errors at the boundary. */
final class Jdbc {
    interface Work<T> {
        T run(Connection c) throws SQLException;
    }

    private volatile DataSource dataSource;
    private final String name;
    private final Supplier<DataSource> reopen;
    private final Clock clock;
    private volatile DiskSync diskSync;

    /**
     * @param name where the database is, for messages
     * @param reopen makes a fresh data source when the database closed itself (H2 does after a failed write, e.g.
     *     on a full disk); null when the database never does
     */
    /** The catalog's name in messages (its address, without a password). */
    String name() {
        return name;
    }

    Jdbc(DataSource dataSource, String name, Supplier<DataSource> reopen, Clock clock) {
        this.dataSource = dataSource;
        this.name = name;
        this.reopen = reopen;
        this.clock = clock;
    }

    /** From now on, every transaction that wrote is forced to the disk before its commit returns. */
    void syncCommits(DiskSync sync) {
        this.diskSync = sync;
    }

    /** Now, by the catalog's clock, in UTC: every timestamp the catalog writes or compares comes from here. */
    OffsetDateTime now() {
        return OffsetDateTime.now(clock).withOffsetSameInstant(ZoneOffset.UTC);
    }

    /**
     * Runs {@code work} in a transaction: committed if it returns, rolled back if it throws. A database that closed
     * itself after a failed write is reopened and the work tried once more, so reads go on serving what was
     * committed once the cause (a full disk) allows it.
     */
    <T> T tx(String what, Work<T> work) {
        DataSource used = dataSource;
        try {
            return attempt(used, work);
        } catch (SQLException e) {
            if (reopen != null && closedItself(e)) {
                try {
                    synchronized (this) {
                        // Only the first of several threads that saw it close reopens it.
                        if (dataSource == used) {
                            dataSource = reopen.get();
                        }
                    }
                    if (!(e instanceof AfterCommit)) {
                        return attempt(dataSource, work);
                    }
                    // Its commit returned: run again, a publish found its versions published and refused them
                    // (and the writer purged their records). Reopened for the calls after it; this one fails.
                } catch (SQLException | RuntimeException again) {
                    e.addSuppressed(again);
                }
            }
            if (StorageProblems.kind(e) != StorageProblems.Kind.OTHER) {
                throw StorageProblems.exception("catalog", name, what, e);
            }
            throw new StoreException("catalog (" + name + ") could not " + what + ": " + e.getMessage(), e);
        }
    }

    /**
     * Runs the transaction, again (up to {@value #CONFLICT_TRIES} times in all) when it lost a race with another
     * writer: two first versions of one document inserted at once (a unique key), a serialisation failure or a
     * deadlock. Rolled back each time, so a retry starts from what the winner committed.
     */
    private <T> T attempt(DataSource ds, Work<T> work) throws SQLException {
        for (int i = 1; ; i++) {
            try {
                return attemptOnce(ds, work);
            } catch (SQLException e) {
                if (i >= CONFLICT_TRIES || !conflict(e) || e instanceof AfterCommit) {
                    throw e;
                }
            }
        }
    }

    private static final int CONFLICT_TRIES = 4;

    private static boolean conflict(SQLException e) {
        String state = e.getSQLState();
        return "23505".equals(state) || "40001".equals(state) || "40P01".equals(state);
    }

    private <T> T attemptOnce(DataSource ds, Work<T> work) throws SQLException {
        boolean[] committed = {false};
        try (Connection c = ds.getConnection()) {
            c.setAutoCommit(false);
            DiskSync sync = diskSync;
            try {
                T result = work.run(c);
                if (sync == null) {
                    c.commit();
                    committed[0] = true;
                } else if (DiskSync.wrote(c)) {
                    // A failed sync throws after the commit (AfterCommit): the write is not acknowledged, though it
                    // may be there.
                    sync.commit(c);
                    committed[0] = true;
                } else {
                    c.commit();
                    sync.read(c);
                }
                return result;
            } catch (SQLException | RuntimeException e) {
                if (!committed[0] && !(e instanceof AfterCommit)) {
                    try {
                        c.rollback();
                    } catch (SQLException rollback) {
                        e.addSuppressed(rollback);
                    }
                }
                throw e;
            }
        } catch (SQLException e) {
            // The connection's close failed after a commit (the pool resetting it on a database that closed).
            throw committed[0] && !(e instanceof AfterCommit) ? new AfterCommit(e) : e;
        }
    }

    /** A failure after a transaction's commit returned: its writes may be in the database; never run again. */
    static final class AfterCommit extends SQLException {
        private static final long serialVersionUID = 1L;

        AfterCommit(SQLException cause) {
            super(cause.getMessage(), cause.getSQLState(), cause.getErrorCode(), cause);
        }
    }

    /** H2's "database is closed" (90098) and "database called at shutdown" (90121). */
    private static boolean closedItself(SQLException e) {
        for (Throwable t = e; t != null; t = t.getCause()) {
            if (t instanceof SQLException s && (s.getErrorCode() == 90098 || s.getErrorCode() == 90121)) {
                return true;
            }
        }
        return false;
    }
}
