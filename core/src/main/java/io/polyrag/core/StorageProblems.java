package io.polyrag.core;

import java.net.ConnectException;
import java.net.NoRouteToHostException;
import java.net.SocketException;
import java.net.http.HttpConnectTimeoutException;
import java.nio.file.AccessDeniedException;
import java.nio.file.FileSystemException;
import java.sql.SQLException;
import java.sql.SQLNonTransientConnectionException;
import java.sql.SQLTransientConnectionException;
import java.util.Locale;
import java.util.Set;

/**
 * Turns a storage failure into one line that says what happened, where, and what to do: a full disk, a folder that
 * cannot be written, or damaged files. Adapters call it at their boundary so every store words these alike.
 */
public final class StorageProblems {
    /** What kind of storage failure a throwable is. */
    public enum Kind {
        DISK_FULL, NOT_WRITABLE, DAMAGED, OTHER
    }

    private StorageProblems() {
    }

    /** The kind of the first cause that says what went wrong. */
    public static Kind kind(Throwable e) {
        return kindOf(telling(e));
    }

    /** The first cause whose kind is known, or {@code e} itself. */
    private static Throwable telling(Throwable e) {
        for (Throwable t = e; t != null; t = t.getCause() == t ? null : t.getCause()) {
            if (kindOf(t) != Kind.OTHER) {
                return t;
            }
        }
        return e;
    }

    private static Kind kindOf(Throwable t) {
        String m = String.valueOf(t.getMessage()).toLowerCase(Locale.ROOT);
        if (m.contains("no space left on device") || m.contains("disk quota exceeded")
                || m.contains("not enough space")) {
            return Kind.DISK_FULL;
        }
        if (t instanceof AccessDeniedException || m.contains("read-only file system")
                || m.contains("permission denied")) {
            return Kind.NOT_WRITABLE;
        }
        if (t.getClass().getSimpleName().contains("Corrupt") || m.contains("codec footer mismatch")
                || m.contains("problem reading index") || m.contains("checksum failed")
                || t.getClass().getSimpleName().equals("IndexFormatTooOldException")) {
            return Kind.DAMAGED;
        }
        return Kind.OTHER;
    }

    /**
     * One line for a failure of {@code store} at {@code path} while it tried to {@code action}.
     *
     * @param store the store's name as users know it ("full-text index", "catalog")
     * @param path its folder
     * @param action what it was doing ("write", "open")
     */
    public static String describe(String store, Object path, String action, Throwable e) {
        return switch (kind(e)) {
            case DISK_FULL -> "no space left on device at " + path + " (the " + store + " could not " + action
                    + "): free some space and retry; what was committed before is kept";
            case NOT_WRITABLE -> "cannot write to " + path + " (the " + store + " could not " + action
                    + "): the folder is read-only or not writable by this user; fix its permissions or mount, "
                    + "then retry" + detail(e);
            case DAMAGED -> "the " + store + " at " + path + " is damaged" + detail(e) + ": stop polyrag, move "
                    + "that folder aside, start it again and run 'polyrag check --repair' to rebuild it from the "
                    + "catalog";
            case OTHER -> "the " + store + " at " + path + " could not " + action + ": " + e.getMessage();
        };
    }

    private static String detail(Throwable e) {
        for (Throwable t = e; t != null; t = t.getCause() == t ? null : t.getCause()) {
            if (t instanceof FileSystemException fse && fse.getFile() != null) {
                return " (" + fse.getFile() + ")";
            }
        }
        String m = telling(e).getMessage();
        return m == null ? "" : " (" + (m.length() > 200 ? m.substring(0, 200) + "…" : m) + ")";
    }

    /** SQL states of a lock wait that timed out: PostgreSQL's lock_not_available, H2's lock timeout. */
    private static final Set<String> LOCK_TIMEOUTS = Set.of("55P03", "HYT00");

    /**
     * Whether {@code e} says a store could not be reached, rather than that it refused the work: a server that is
     * down, restarting or dropping connections (a refused or reset connection, a connect timeout, SQL state class 08
     * or PostgreSQL's shutdown states 57P01-57P03, a driver's "service unavailable"), or polyrag's own
     * {@link UnavailableException}; or rows it cannot have within the lock timeout (PostgreSQL's 55P03, H2's HYT00:
     * another writer holds them, perhaps a replica that died mid-transaction until its session is ended). Work that
     * failed so succeeds unchanged once the store is back: a job waits and resumes instead of failing its files.
     */
    public static boolean unreachable(Throwable e) {
        for (Throwable t = e; t != null; t = t.getCause() == t ? null : t.getCause()) {
            String name = t.getClass().getName();
            if (t instanceof UnavailableException || t instanceof ConnectException
                    || t instanceof HttpConnectTimeoutException
                    || t instanceof NoRouteToHostException || t instanceof SQLTransientConnectionException
                    || t instanceof SQLNonTransientConnectionException
                    // Apache HttpClient's (OpenSearch's transport, S3's): a connect timeout, a SocketTimeoutException
                    // by class, is a host that does not answer at all (powered off, a dropping firewall).
                    || t.getClass().getSimpleName().equals("ConnectTimeoutException")
                    || name.endsWith("ServiceUnavailableException") || name.endsWith("SessionExpiredException")
                    || name.endsWith("ConnectionClosedException")) {
                return true;
            }
            if (t instanceof SQLException sql && sql.getSQLState() != null
                    && (sql.getSQLState().startsWith("08") || sql.getSQLState().startsWith("57P0")
                    || LOCK_TIMEOUTS.contains(sql.getSQLState()))) {
                return true;
            }
            // HikariCP's words, with no SQL state, for a pooled connection it closed under its user after the server
            // dropped it (seen when a relay cut every connection mid-write).
            if (t instanceof SQLException && "Connection is closed".equals(t.getMessage())) {
                return true;
            }
            if (t instanceof SocketException && String.valueOf(t.getMessage()).toLowerCase(Locale.ROOT)
                    .matches(".*(connection reset|broken pipe|connection refused|socket closed).*")) {
                return true;
            }
        }
        return false;
    }

    /** A {@link StoreException} carrying {@link #describe}'s line and the cause. */
    public static StoreException exception(String store, Object path, String action, Throwable e) {
        return new StoreException(describe(store, path, action, e), e);
    }
}
