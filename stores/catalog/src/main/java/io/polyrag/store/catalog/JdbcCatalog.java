package io.polyrag.store.catalog;

import io.polyrag.core.StoreException;
import io.polyrag.core.port.ConversationStore;
import io.polyrag.core.port.JudgmentStore;
import io.polyrag.core.port.KeyStore;
import io.polyrag.core.port.JobStore;
import io.polyrag.core.port.SourceStore;
import io.polyrag.core.port.UsageStore;
import io.polyrag.core.port.EmbeddingCache;
import io.polyrag.core.port.ContextCache;
import io.polyrag.core.port.ResponseCache;
import io.polyrag.core.spi.CatalogProvider.CatalogAndJobs;
import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.time.Clock;
import java.util.BitSet;
import java.util.List;
import java.util.function.Supplier;
import javax.sql.DataSource;
import org.flywaydb.core.Flyway;
import org.flywaydb.core.api.FlywayException;

/**
 * The catalog and job store in plain SQL that H2 (PostgreSQL mode) and PostgreSQL both run.
 *
 * <p>Visibility lives in {@code documents.visible_version}: {@link #resolve} joins chunks to it, so a chunk is seen
 * only while its version is the visible one. Version numbers come from {@code version_counters}, incremented under a
 * row lock, so concurrent ingests of one document never share a number. Job claiming uses
 * {@code FOR UPDATE SKIP LOCKED}.
 *
 * <p>Cut by job: {@link CatalogReads} (what is read, the search path's reads on their own pool), {@link CatalogWrites}
 * (the version lifecycle), this class (the pools, the schema, the other roles sharing the database, each its own
 * class).
 */
public class JdbcCatalog extends CatalogWrites implements CatalogAndJobs {

    /** The search path's reads (hits to chunks, neighbours, cached answers): their own pool where there are pools. */
    private final boolean shared;
    private final Jdbc jobsJdbc;
    private DiskSync diskSync;
    private final AutoCloseable onClose;
    private final JdbcJobs jobs;
    private final JdbcKeys keys;
    private final JdbcSources sources;
    private final JdbcConversations conversations;
    private final JdbcJudgments judgments;
    private final JdbcUsage usage;
    private final JdbcEmbeddingCache cache;
    private final JdbcContextCache contexts;
    private final JdbcResponseCache responses;

    public JdbcCatalog(DataSource dataSource, String name, AutoCloseable onClose) {
        this(dataSource, name, onClose, null, Clock.systemUTC());
    }

    /**
     * @param reopen makes a fresh data source when the database closed itself after a failed write
     * @param clock the time every timestamp comes from (tests move it instead of sleeping)
     */
    public JdbcCatalog(DataSource dataSource, String name, AutoCloseable onClose,
            Supplier<DataSource> reopen, Clock clock) {
        this(dataSource, dataSource, dataSource, name, onClose, reopen, clock);
    }

    /**
     * A catalog whose work is split by role over pools, so a slow ingest never starves search and the job workers
     * never starve either.
     *
     * @param ingest documents, versions, knowledge bases, keys: every write, and the reads that are not search's
     * @param search resolving hits to chunks, neighbours, cached responses
     * @param jobs the job queue (claims, heartbeats, progress)
     */
    public JdbcCatalog(DataSource ingest, DataSource search, DataSource jobs, String name, AutoCloseable onClose,
            Supplier<DataSource> reopen, Clock clock) {
        this(ingest, search, jobs, name, onClose, reopen, clock, false);
    }

    /** @param shared whether other processes use the same database (a server, not an embedded file) */
    public JdbcCatalog(DataSource ingest, DataSource search, DataSource jobs, String name, AutoCloseable onClose,
            Supplier<DataSource> reopen, Clock clock, boolean shared) {
        this(new Jdbc(ingest, name, reopen, clock), ingest, search, jobs, onClose, clock, shared);
    }

    private JdbcCatalog(Jdbc jdbc, DataSource ingest, DataSource search, DataSource jobs, AutoCloseable onClose,
            Clock clock, boolean shared) {
        super(jdbc, search == ingest ? jdbc : new Jdbc(search, jdbc.name(), null, clock));
        this.shared = shared;
        Jdbc jobsJdbc = jobs == ingest ? jdbc : new Jdbc(jobs, jdbc.name(), null, clock);
        this.jobsJdbc = jobsJdbc;
        this.onClose = onClose;
        this.jobs = new JdbcJobs(jobsJdbc);
        this.keys = new JdbcKeys(jdbc, this.search);
        this.sources = new JdbcSources(jdbc);
        this.conversations = new JdbcConversations(jdbc);
        this.judgments = new JdbcJudgments(jdbc);
        this.usage = new JdbcUsage(jdbc);
        this.cache = new JdbcEmbeddingCache(jdbc);
        this.contexts = new JdbcContextCache(jdbc);
        this.responses = new JdbcResponseCache(jdbc, this.search);
        migrate(ingest);
    }

    /**
     * {@code POLYRAG_DURABILITY=fsync} on the embedded catalog: from now on each transaction that wrote is forced to
     * the disk before its commit returns ({@link DiskSync}). A server catalog makes its commits durable itself.
     */
    JdbcCatalog syncCommits() {
        return syncCommits(new DiskSync());
    }

    /** {@link #syncCommits()} with {@code sync} (a test's, whose force it can hold). */
    JdbcCatalog syncCommits(DiskSync sync) {
        diskSync = sync;
        for (Jdbc j : List.of(jdbc, search, jobsJdbc)) {
            j.syncCommits(diskSync);
        }
        return this;
    }

    /** How many times the catalog's file was forced to the disk since it opened (0 unless in fsync mode). */
    long diskSyncs() {
        return diskSync == null ? 0 : diskSync.syncs();
    }

    /**
     * Brings the schema to the current version with Flyway (history in {@code polyrag_schema_history}); the same
     * migrations serve H2 and PostgreSQL. A catalog made before polyrag used Flyway is baselined at version 0, and
     * version 1 is written idempotently ({@code IF NOT EXISTS}), so it upgrades in place.
     */
    private void migrate(DataSource dataSource) {
        if (current(dataSource)) {
            return;
        }
        for (int attempt = 1; ; attempt++) {
            try {
                Flyway.configure(JdbcCatalog.class.getClassLoader()).dataSource(dataSource)
                        .locations("classpath:io/polyrag/store/catalog/migration").table("polyrag_schema_history")
                        .baselineOnMigrate(true).baselineVersion("0").loggers("slf4j").load().migrate();
                return;
            } catch (FlywayException e) {
                // Replicas starting together on one empty PostgreSQL schema race before Flyway takes its lock: one
                // creates the history table, another finds it existing but still empty and refuses to baseline — or,
                // a moment later, finds the first's tables and tries to baseline a history that already holds its
                // migrations. The first one's migration completes within moments; the second then finds nothing to do.
                String message = String.valueOf(e.getMessage());
                if (attempt < MIGRATION_TRIES && (message.contains("already exists, and is empty")
                        || message.contains("already contains migrations"))) {
                    try {
                        Thread.sleep(500);
                    } catch (InterruptedException interrupted) {
                        Thread.currentThread().interrupt();
                        throw new StoreException("interrupted while the catalog schema was brought "
                                + "up to date", interrupted);
                    }
                    continue;
                }
                throw new StoreException("cannot bring the catalog schema up to date: "
                        + e.getMessage(), e);
            }
        }
    }

    /** The newest migration bundled ({@code V<n>__…sql}; a test holds it to the files). */
    static final int LATEST_MIGRATION = 22;

    /**
     * Whether the schema history already records every bundled migration, all successful: then Flyway is not
     * started at all (loading and configuring it is a third of a second of every command's start-up). Anything
     * else — no history yet, a failed or missing version, a read error — leaves the decision to Flyway.
     */
    private static boolean current(DataSource dataSource) {
        try (Connection c = dataSource.getConnection()) {
            // The history of the schema this connection works in (the one Flyway would use), never a table of the
            // same name further along PostgreSQL's search_path, which another deployment may own.
            String schema = c.getSchema();
            if (schema == null || schema.isBlank()) {
                return false;
            }
            return current(c, "\"" + schema.replace("\"", "\"\"") + "\".\"polyrag_schema_history\"");
        } catch (SQLException e) {
            return false;
        }
    }

    private static boolean current(Connection c, String table) throws SQLException {
        try (PreparedStatement ps = c.prepareStatement("SELECT \"version\", \"success\" FROM " + table
                + " WHERE \"version\" IS NOT NULL");
                ResultSet rs = ps.executeQuery()) {
            BitSet seen = new BitSet();
            while (rs.next()) {
                if (!rs.getBoolean(2)) {
                    return false;
                }
                try {
                    int v = Integer.parseInt(rs.getString(1).strip());
                    if (v > LATEST_MIGRATION) {
                        return false; // a newer polyrag migrated it: let Flyway say so
                    }
                    seen.set(v);
                } catch (NumberFormatException e) {
                    return false;
                }
            }
            return seen.nextClearBit(1) > LATEST_MIGRATION;
        } catch (SQLException e) {
            return false;
        }
    }

    /** Tries of a migration that found another process's migration half way (half a second apart). */
    private static final int MIGRATION_TRIES = 40;

    @Override
    public boolean shared() {
        return shared;
    }

    // ---- the roles that share this database, each its own class

    @Override
    public JobStore jobStore() {
        return jobs;
    }

    @Override
    public KeyStore keyStore() {
        return keys;
    }

    @Override
    public SourceStore sourceStore() {
        return sources;
    }

    @Override
    public ConversationStore conversationStore() {
        return conversations;
    }

    @Override
    public JudgmentStore judgmentStore() {
        return judgments;
    }

    @Override
    public UsageStore usageStore() {
        return usage;
    }

    @Override
    public EmbeddingCache embeddingCache() {
        return cache;
    }

    @Override
    public ContextCache contextCache() {
        return contexts;
    }

    @Override
    public ResponseCache responseCache() {
        return responses;
    }

    @Override
    public void close() {
        try {
            onClose.close();
        } catch (Exception e) {
            throw new StoreException("cannot close the catalog: " + e.getMessage(), e);
        }
    }

}
