package io.polyrag.store.catalog;

import com.zaxxer.hikari.HikariConfig;
import com.zaxxer.hikari.HikariDataSource;
import io.polyrag.core.StorageProblems;
import io.polyrag.core.StoreException;
import io.polyrag.core.UnavailableException;
import io.polyrag.core.config.Settings;
import io.polyrag.core.spi.CatalogProvider;
import io.polyrag.core.spi.ProviderContext;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.sql.SQLException;
import java.sql.Statement;
import java.time.Clock;
import java.util.Locale;
import java.util.concurrent.atomic.AtomicReference;
import org.h2.api.ErrorCode;

/** {@code POLYRAG_CATALOG_BACKEND=h2}: an embedded H2 database in PostgreSQL mode in {@code <data>/catalog}. */
public final class H2CatalogProvider implements CatalogProvider {
    private static final System.Logger LOG = System.getLogger(H2CatalogProvider.class.getName());
    @Override
    public String name() {
        return "h2";
    }

    @Override
    public String description() {
        return "embedded H2 database (PostgreSQL mode) in the data directory";
    }

    @Override
    public CatalogAndJobs open(ProviderContext context) {
        JdbcCatalog catalog = open(context.dataDir().resolve("catalog"), Clock.systemUTC(),
                COMPACT_MIN_BYTES, "", cacheKb(context.config().get(Settings.CATALOG_CACHE_MB),
                        Runtime.getRuntime().maxMemory()));
        return "fsync".equals(context.config().get(Settings.DURABILITY))
                ? catalog.syncCommits() : catalog;
    }

    /**
     * H2's page cache in KB: {@code mb} when set, else an eighth of the heap, between 64 MB and 1 GB. A search reads
     * its hits' rows at random across the chunks table; once the table outgrows the cache, each of those reads
     * decodes a page from the file again (at 100k chunks the full-text search took 1.5 ms with 64 MB against
     * 1.0 ms with the table's 291 MB cached: docs/benchmarks.md).
     */
    static long cacheKb(int mb, long maxHeapBytes) {
        long chosen = mb > 0 ? mb : Math.clamp(maxHeapBytes / 8 >> 20, 64, 1024);
        return chosen << 10;
    }

    /** Opens (creating if needed) the catalog database in {@code dir}. */
    public static JdbcCatalog open(Path dir) {
        return open(dir, Clock.systemUTC());
    }

    /** Like {@link #open(Path)}, with the clock its timestamps come from. */
    public static JdbcCatalog open(Path dir, Clock clock) {
        return open(dir, clock, COMPACT_MIN_BYTES, "");
    }

    /**
     * Like {@link #open(Path, java.time.Clock)}; a file of at least {@code compactMinBytes} may be compacted at
     * close, and {@code urlSettings} ({@code ;NAME=value...}) are added to the database URL.
     */
    static JdbcCatalog open(Path dir, Clock clock, long compactMinBytes, String urlSettings) {
        return open(dir, clock, compactMinBytes, urlSettings, cacheKb(0, Runtime.getRuntime().maxMemory()));
    }

    /** Like {@link #open(Path, java.time.Clock, long, String)}, with H2's page cache of {@code cacheKb} KB. */
    static JdbcCatalog open(Path dir, Clock clock, long compactMinBytes, String urlSettings, long cacheKb) {
        return open(dir, clock, compactMinBytes, urlSettings, cacheKb, COMPACT_EVERY_MS);
    }

    /** How often the open catalog's file is compacted ({@link OnlineCompaction}), in milliseconds. */
    static final long COMPACT_EVERY_MS = 10_000;

    /**
     * Like {@link #open(Path, java.time.Clock, long, String, long)}; the file is compacted while open every
     * {@code compactEveryMs} (0: only at close) once it is {@code compactMinBytes} or larger.
     */
    static JdbcCatalog open(Path dir, Clock clock, long compactMinBytes, String urlSettings, long cacheKb,
            long compactEveryMs) {
        try {
            Files.createDirectories(dir);
        } catch (IOException e) {
            throw new StoreException("cannot create the catalog directory " + dir + ": " + e.getMessage(), e);
        }
        String url = "jdbc:h2:file:" + dir.toAbsolutePath().resolve("polyrag")
                + ";MODE=PostgreSQL;DATABASE_TO_LOWER=TRUE;DEFAULT_NULL_ORDERING=HIGH;LOCK_TIMEOUT=10000"
                // Each commit reaches the file before it returns (H2's default waits up to 500 ms), so what polyrag
                // acknowledges survives the process being killed; the Lucene stores commit durably too.
                + ";WRITE_DELAY=0;CACHE_SIZE=" + cacheKb
                // Closed by polyrag's own shutdown, after the server stopped taking requests and the jobs went back in
                // the queue; H2's shutdown hook closed it under them at SIGTERM (a soak saw searches fail with 503
                // and a running sync job fail instead of being put back).
                + ";DB_CLOSE_ON_EXIT=FALSE" + urlSettings;
        AtomicReference<HikariDataSource> pool =
                new AtomicReference<>(connect(url, dir));
        OnlineCompaction compaction = new OnlineCompaction(pool::get, compactMinBytes, compactEveryMs);
        try {
            return catalog(dir, clock, compactMinBytes, url, pool, compaction);
        } catch (RuntimeException e) {
            compaction.close();
            throw e;
        }
    }

    private static JdbcCatalog catalog(Path dir, Clock clock, long compactMinBytes, String url,
            AtomicReference<HikariDataSource> pool, OnlineCompaction compaction) {
        return new JdbcCatalog(pool.get(), dir.toString(), () -> {
            compaction.close();
            try (var c = pool.get().getConnection(); var s = c.createStatement()) {
                s.execute(compactAtClose(s, dir, compactMinBytes) ? "SHUTDOWN COMPACT" : "SHUTDOWN");
            } catch (SQLException e) {
                // H2's own shutdown hook may have closed it first (Ctrl-C): nothing left to shut down.
                if (e.getErrorCode() != ErrorCode.DATABASE_IS_CLOSED
                        && e.getErrorCode() != ErrorCode.DATABASE_CALLED_AT_SHUTDOWN) {
                    throw e;
                }
            } finally {
                pool.get().close();
            }
        }, () -> {
            // H2 closes a database whose write failed (a full disk): open it again from its file. The new pool first:
            // if the file cannot be opened yet, the old one stays in place (its connections report the database
            // closed, which the next call retries) instead of a disposed pool that fails every later call.
            HikariDataSource fresh = connect(url, dir);
            pool.getAndSet(fresh).close();
            return fresh;
        }, clock);
    }

    /** A file at least this large is rewritten at close when most of it is dead. */
    static final long COMPACT_MIN_BYTES = 64L << 20;

    /**
     * Whether to rewrite the file at close. Every commit reaches the file before it returns ({@code WRITE_DELAY=0}),
     * and in that mode H2 runs no background housekeeping: the pages each commit replaces stay in the file, in
     * chunks that also hold live pages, so the file grew with the commits, not with the data; {@link OnlineCompaction}
     * now rewrites those chunks while the catalog is open, which stops the growth but does not shrink the file
     * back after a burst of writes. Measured before it: 196,680
     * chunks ingested in 1,024-chunk batches made a 2.8 GB catalog whose live pages were a quarter of its chunks;
     * H2's background housekeeping, tried with writes made durable by hand, kept up no better — 3.2 GB). A file of
     * at least {@link #COMPACT_MIN_BYTES} with less than half of it live is rewritten by {@code SHUTDOWN COMPACT}
     * (that 3.2 GB file: 218 MB after 5 s; the 100k bench directory's 2.8 GB: 291 MB after 5.7 s), which writes a
     * new file and swaps it in, so a kill meanwhile leaves the old one whole.
     */
    private static boolean compactAtClose(Statement s, Path dir, long minBytes) throws SQLException {
        long size = 0;
        int fill = 100;
        int chunksFill = 100;
        try (var rs = s.executeQuery("SELECT SETTING_NAME, SETTING_VALUE FROM INFORMATION_SCHEMA.SETTINGS WHERE "
                + "SETTING_NAME IN ('info.FILE_SIZE', 'info.FILL_RATE', 'info.CHUNKS_FILL_RATE')")) {
            while (rs.next()) {
                long value = Long.parseLong(rs.getString(2).trim());
                switch (rs.getString(1)) {
                    case "info.FILE_SIZE" -> size = value;
                    case "info.FILL_RATE" -> fill = (int) value;
                    default -> chunksFill = (int) value;
                }
            }
        } catch (NumberFormatException e) {
            return false;
        }
        long live = size * fill / 100 * chunksFill / 100;
        if (size < minBytes || live * 2 >= size) {
            return false;
        }
        LOG.log(System.Logger.Level.INFO, String.format(Locale.ROOT, "compacting the catalog at %s: "
                + "%,d MB, about %,d MB of it live", dir, size >> 20, live >> 20));
        return true;
    }

    /**
     * A pool of up to 16 sessions. HikariCP, not H2's own JdbcConnectionPool: a session handed out by H2's pool
     * parses every statement again (its per-session statement cache never hits, measured: 3.4 µs a query with or
     * without the cache, against 1.8 µs cached through HikariCP), and a search's catalog join spent a quarter of its
     * time in parsing. Sessions are never retired (an embedded database closes with its last session).
     */
    private static HikariDataSource connect(String url, Path dir) {
        HikariConfig hc = new HikariConfig();
        hc.setJdbcUrl(url);
        hc.setUsername("polyrag");
        hc.setPassword("");
        hc.setPoolName("polyrag-h2");
        hc.setMaximumPoolSize(16);
        hc.setMinimumIdle(1);
        hc.setIdleTimeout(0);
        hc.setMaxLifetime(0);
        try {
            return new HikariDataSource(hc);
        } catch (RuntimeException e) {
            Throwable root = e;
            while (root.getCause() != null && !(root instanceof SQLException)) {
                root = root.getCause();
            }
            if (root instanceof SQLException sql) {
                if (sql.getErrorCode() == ErrorCode.DATABASE_ALREADY_OPEN_1) {
                    throw new UnavailableException("the catalog at " + dir + " is already in use by another process: "
                            + "stop it, or give this one its own data directory", sql);
                }
                throw StorageProblems.kind(sql) != StorageProblems.Kind.OTHER
                        ? StorageProblems.exception("catalog", dir, "open", sql)
                        : new StoreException("cannot open the catalog at " + dir + ": " + sql.getMessage(), sql);
            }
            throw new StoreException("cannot open the catalog at " + dir + ": " + e.getMessage(), e);
        }
    }
}
