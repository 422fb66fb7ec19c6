package io.polyrag.store.catalog;

import java.sql.Connection;
import java.sql.SQLException;
import java.util.concurrent.Executors;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicLong;
import java.util.function.Supplier;
import javax.sql.DataSource;
import org.h2.engine.SessionLocal;
import org.h2.jdbc.JdbcConnection;
import org.h2.mvstore.FileStore;
import org.h2.mvstore.MVStore;

/**
 * Keeps the embedded catalog's file near the size of its live data while it is written. Every commit writes the pages
 * it changed into a new chunk of the file ({@code WRITE_DELAY=0}: each commit is stored before it returns), and the
 * pages it replaced stay behind in older chunks. A chunk is reused once none of its pages is live and H2's retention
 * time (45 s) has passed, but a chunk with one live page among thousands of dead ones is never reused: H2 rewrites
 * such chunks only in the background housekeeping that {@code WRITE_DELAY=0} switches off. A 30-minute soak grew the
 * file to 17.8 GB for 133 MB of live data; {@code SHUTDOWN COMPACT} repaired it only at a clean close.
 *
 * <p>Every few seconds this rewrites the live pages of the sparsest chunks (H2's own {@link FileStore#compact}, the
 * step its housekeeping takes, under the store's lock), for at most {@link #BUDGET_MS} a pass; the next commits free
 * the chunks left empty and their space takes new ones, so the file stops growing at about its live data plus what
 * the retention time keeps. The file is not shrunk while open: a large rewrite of the file belongs at close.
 */
final class OnlineCompaction implements AutoCloseable {
    private static final System.Logger LOG = System.getLogger(OnlineCompaction.class.getName());
    /** Rewrite while fewer than this share of the chunks' pages are live (percent), as H2's housekeeping does. */
    static final int TARGET_FILL = 50;
    /** Most time one pass may spend rewriting pages: commits wait for the store's lock meanwhile. */
    static final long BUDGET_MS = 200;
    /** Most bytes of live pages one rewrite step moves. */
    private static final int STEP_BYTES = 4 << 20;

    private final Supplier<DataSource> pool;
    private final long minBytes;
    private final ScheduledExecutorService timer;
    private final AtomicLong rewrites = new AtomicLong();

    /**
     * @param pool the catalog's current pool (it is replaced when the database is opened again)
     * @param minBytes a file smaller than this is left alone
     * @param everyMs how often to look, in milliseconds; 0 never on a timer (tests call {@link #pass()})
     */
    OnlineCompaction(Supplier<DataSource> pool, long minBytes, long everyMs) {
        this.pool = pool;
        this.minBytes = minBytes;
        if (everyMs > 0) {
            timer = Executors.newSingleThreadScheduledExecutor(r -> {
                Thread t = new Thread(r, "polyrag-catalog-compaction");
                t.setDaemon(true);
                t.setPriority(Thread.MIN_PRIORITY);
                return t;
            });
            timer.scheduleWithFixedDelay(this::passQuietly, everyMs, everyMs, TimeUnit.MILLISECONDS);
        } else {
            timer = null;
        }
    }

    private void passQuietly() {
        try {
            pass();
        } catch (SQLException | RuntimeException e) {
            // A closed or reopening database, a full disk: the next pass tries again; the writes report their errors.
            LOG.log(System.Logger.Level.DEBUG, "catalog compaction pass skipped", e);
        }
    }

    /** One pass: rewrites the sparsest chunks for at most {@link #BUDGET_MS}; returns how many steps it took. */
    int pass() throws SQLException {
        MVStore store = store();
        if (store == null || store.isClosed()) {
            return 0;
        }
        FileStore<?> file = store.getFileStore();
        if (file == null || file.isReadOnly() || file.size() < minBytes) {
            return 0;
        }
        long stopAt = System.nanoTime() + TimeUnit.MILLISECONDS.toNanos(BUDGET_MS);
        int steps = 0;
        while (file.getChunksFillRate() < TARGET_FILL && file.compact(TARGET_FILL, STEP_BYTES)) {
            steps++;
            if (System.nanoTime() - stopAt > 0) {
                break;
            }
        }
        rewrites.addAndGet(steps);
        return steps;
    }

    /** The store under the pool's database: H2's own API, the one its housekeeping uses. */
    private MVStore store() throws SQLException {
        try (Connection c = pool.get().getConnection()) {
            if (c.isWrapperFor(JdbcConnection.class)
                    && c.unwrap(JdbcConnection.class).getSession()
                            instanceof SessionLocal local) {
                var db = local.getDatabase().getStore();
                return db == null ? null : db.getMvStore();
            }
            return null;
        }
    }

    /** How many rewrite steps all passes took (tests). */
    long rewrites() {
        return rewrites.get();
    }

    @Override
    public void close() {
        if (timer != null) {
            // Not interrupted: an interrupt closes the file channel under H2, which then takes the database as broken.
            timer.shutdown();
            try {
                // A pass under way finishes before the database is shut down.
                timer.awaitTermination(5, TimeUnit.SECONDS);
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
            }
        }
    }
}
