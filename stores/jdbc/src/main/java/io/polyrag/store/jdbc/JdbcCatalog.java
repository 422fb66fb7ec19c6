package io.polyrag.store.jdbc;

import io.polyrag.core.StoreException;
import io.polyrag.core.model.Chunk;
import io.polyrag.core.model.ChunkKind;
import io.polyrag.core.model.ChunkView;
import io.polyrag.core.model.DocumentDraft;
import io.polyrag.core.model.DocumentInfo;
import io.polyrag.core.model.DocumentMeta;
import io.polyrag.core.model.DocumentStatus;
import io.polyrag.core.model.DocumentVersion;
import io.polyrag.core.model.Figure;
import io.polyrag.core.model.KnowledgeBaseInfo;
import io.polyrag.core.model.SearchScope;
import io.polyrag.core.model.VersionRecords;
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
import java.sql.Array;
import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.time.OffsetDateTime;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.BitSet;
import java.util.Collection;
import java.util.Comparator;
import java.util.EnumSet;
import java.util.HashMap;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
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
 */
public class JdbcCatalog implements CatalogAndJobs {
    static final char PATH_SEPARATOR = '\u001f';
    /** States of a version that was made visible once (published, then maybe replaced or deleted since). */
    private static final Set<String> VISIBLE_ONCE = Set.of("published", "replaced", "deleted", "purged");
    /** Whether a document has a version being written. */
    private static final String PENDING = "EXISTS (SELECT 1 FROM document_versions p WHERE p.document_id = d.id "
            + "AND p.state = 'pending')";

    final Jdbc jdbc;
    /** The search path's reads (hits to chunks, neighbours, cached answers): their own pool where there are pools. */
    private final boolean shared;
    private final Jdbc search;
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
        this.shared = shared;
        this.jdbc = new Jdbc(ingest, name, reopen, clock);
        this.search = search == ingest ? jdbc : new Jdbc(search, name, null, clock);
        Jdbc jobsJdbc = jobs == ingest ? jdbc : new Jdbc(jobs, name, null, clock);
        this.jobsJdbc = jobsJdbc;
        this.onClose = onClose;
        this.jobs = new JdbcJobs(jobsJdbc);
        this.keys = new JdbcKeys(jdbc);
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
                        .locations("classpath:io/polyrag/store/jdbc/migration").table("polyrag_schema_history")
                        .baselineOnMigrate(true).baselineVersion("0").loggers("slf4j").load().migrate();
                return;
            } catch (FlywayException e) {
                // Replicas starting together on one empty PostgreSQL schema race before Flyway takes its lock: one
                // creates the history table, another finds it existing but still empty and refuses to baseline.
                // The first one's migration fills it within moments; the second then finds nothing to do.
                String message = String.valueOf(e.getMessage());
                if (attempt < MIGRATION_TRIES && message.contains("already exists, and is empty")) {
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
    static final int LATEST_MIGRATION = 17;

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
    public Optional<DocumentInfo> document(String documentId) {
        return jdbc.tx("read a document", c -> {
            try (PreparedStatement ps = c.prepareStatement(
                    "SELECT d.*, " + PENDING + " AS pending FROM documents d WHERE d.id = ? AND d.deleted = FALSE")) {
                ps.setString(1, documentId);
                try (ResultSet rs = ps.executeQuery()) {
                    return rs.next() ? Optional.of(documentInfo(rs)) : Optional.empty();
                }
            }
        });
    }

    @Override
    public Map<String, DocumentInfo> documentsById(Collection<String> documentIds) {
        Map<String, DocumentInfo> out = new HashMap<>();
        if (documentIds.isEmpty()) {
            return out;
        }
        return jdbc.tx("read documents", c -> {
            try (PreparedStatement ps = c.prepareStatement(
                    "SELECT d.*, " + PENDING + " AS pending FROM documents d WHERE d.id = ANY(?) AND d.deleted = FALSE")) {
                ps.setArray(1, c.createArrayOf("VARCHAR", documentIds.stream().distinct().toArray()));
                try (ResultSet rs = ps.executeQuery()) {
                    while (rs.next()) {
                        DocumentInfo d = documentInfo(rs);
                        out.put(d.id(), d);
                    }
                }
            }
            return out;
        });
    }

    @Override
    public List<DocumentInfo> documentsWithContent(String contentHash, SearchScope scope) {
        return jdbc.tx("find documents by content", c -> {
            String sql = "SELECT d.*, " + PENDING + " AS pending FROM documents d WHERE d.content_hash = ? "
                    + "AND d.deleted = FALSE AND d.visible_version > 0"
                    + (scope.knowledgeBases().isEmpty() ? "" : " AND d.kb = ANY(?)") + " ORDER BY d.uri LIMIT 10";
            try (PreparedStatement ps = c.prepareStatement(sql)) {
                ps.setString(1, contentHash);
                bindScope(c, ps, 2, scope);
                List<DocumentInfo> out = new ArrayList<>();
                try (ResultSet rs = ps.executeQuery()) {
                    while (rs.next()) {
                        out.add(documentInfo(rs));
                    }
                }
                return out;
            }
        });
    }

    @Override
    public long nextVersion(String documentId) {
        return jdbc.tx("allocate a version", c -> nextVersion(c, documentId));
    }

    @Override
    public List<Long> nextVersions(List<String> documentIds) {
        return jdbc.tx("allocate versions", c -> {
            List<Long> out = new ArrayList<>(documentIds.size());
            for (String id : documentIds) {
                out.add(nextVersion(c, id));
            }
            return out;
        });
    }

    private static long nextVersion(Connection c, String documentId) throws SQLException {
        {
            try (PreparedStatement up = c.prepareStatement(
                    "UPDATE version_counters SET last_version = last_version + 1 WHERE document_id = ?")) {
                up.setString(1, documentId);
                if (up.executeUpdate() == 0) {
                    try (PreparedStatement ins = c.prepareStatement(
                            "INSERT INTO version_counters (document_id, last_version) VALUES (?, 1)")) {
                        ins.setString(1, documentId);
                        ins.executeUpdate();
                    }
                    return 1L;
                }
            }
            try (PreparedStatement ps = c.prepareStatement(
                    "SELECT last_version FROM version_counters WHERE document_id = ?")) {
                ps.setString(1, documentId);
                try (ResultSet rs = ps.executeQuery()) {
                    rs.next();
                    return rs.getLong(1);
                }
            }
        }
    }

    @Override
    public void stage(DocumentDraft d, long version) {
        jdbc.tx("stage a document version", c -> {
            stage(c, d, version, new HashSet<>());
            return null;
        });
    }

    @Override
    public void stageAll(List<DocumentDraft> drafts, List<Long> versions) {
        jdbc.tx("stage document versions", c -> {
            Set<String> knowledgeBases = new HashSet<>();
            for (int i = 0; i < drafts.size(); i++) {
                stage(c, drafts.get(i), versions.get(i), knowledgeBases);
            }
            return null;
        });
    }

    /** Stages one version; {@code knowledgeBases} holds those this transaction already made sure exist. */
    private void stage(Connection c, DocumentDraft d, long version, Set<String> knowledgeBases)
            throws SQLException {
        {
            try (PreparedStatement ps = c.prepareStatement("INSERT INTO document_versions (document_id, version, "
                    + "state, title, media_type, content_hash, size_bytes, created_at, graph_chunks, figure_count) "
                    + "VALUES (?,?,'pending',?,?,?,?,?,?,?)")) {
                ps.setString(1, d.id());
                ps.setLong(2, version);
                ps.setString(3, clip(d.title(), 1024));
                ps.setString(4, clip(d.mediaType(), 255));
                ps.setString(5, d.contentHash());
                ps.setLong(6, d.sizeBytes());
                ps.setObject(7, jdbc.now());
                ps.setInt(8, d.graphChunks());
                ps.setInt(9, (int) d.chunks().stream().filter(ch -> ch.figure() != null).count());
                ps.executeUpdate();
            }
            if (!exists(c, d.id())) {
                try (PreparedStatement ps = c.prepareStatement("INSERT INTO documents (id, kb, uri, title, media_type, "
                        + "content_hash, size_bytes, visible_version, chunk_count, deleted, updated_at) "
                        + "VALUES (?,?,?,?,?,?,?,0,0,FALSE,?)")) {
                    ps.setString(1, d.id());
                    ps.setString(2, d.knowledgeBase());
                    ps.setString(3, clip(d.uri(), 4096));
                    ps.setString(4, clip(d.title(), 1024));
                    ps.setString(5, clip(d.mediaType(), 255));
                    ps.setString(6, d.contentHash());
                    ps.setLong(7, d.sizeBytes());
                    ps.setObject(8, jdbc.now());
                    ps.executeUpdate();
                }
            }
            insertChunks(c, d.chunks());
            if (knowledgeBases.add(d.knowledgeBase())) {
                ensureKnowledgeBase(c, d.knowledgeBase());
            }
            // Keep the counter ahead of every staged version, however the caller got its number.
            if (update(c, "UPDATE version_counters SET last_version = GREATEST(last_version, ?) WHERE document_id = ?",
                    version, d.id()) == 0) {
                update(c, "INSERT INTO version_counters (document_id, last_version) VALUES (?, ?)", d.id(), version);
            }
        }
    }

    /** A knowledge base exists from its first document on: its row is made when a document is first staged in it. */
    private void ensureKnowledgeBase(Connection c, String kb) throws SQLException {
        try (PreparedStatement ps = c.prepareStatement("SELECT 1 FROM knowledge_bases WHERE name = ?")) {
            ps.setString(1, kb);
            try (ResultSet rs = ps.executeQuery()) {
                if (rs.next()) {
                    return;
                }
            }
        }
        int slash = kb.indexOf('/');
        update(c, "INSERT INTO knowledge_bases (name, tenant, created_at) VALUES (?, ?, ?)", kb,
                slash < 0 ? "" : kb.substring(0, slash), jdbc.now());
    }

    @Override
    public List<String> knowledgeBases(String tenant) {
        return jdbc.tx("list knowledge bases", c -> {
            try (PreparedStatement ps = c.prepareStatement("SELECT name FROM knowledge_bases WHERE tenant = ? "
                    + "ORDER BY name")) {
                ps.setString(1, tenant == null ? "" : tenant);
                try (ResultSet rs = ps.executeQuery()) {
                    List<String> out = new ArrayList<>();
                    while (rs.next()) {
                        out.add(rs.getString(1));
                    }
                    return out;
                }
            }
        });
    }

    @Override
    public Optional<KnowledgeBaseInfo> knowledgeBase(String name) {
        return jdbc.tx("read a knowledge base", c -> {
            try (PreparedStatement ps = c.prepareStatement("SELECT k.name, k.description, k.created_at, "
                    + "(SELECT COUNT(*) FROM documents d WHERE d.kb = k.name AND d.deleted = FALSE "
                    + "AND d.visible_version > 0) AS docs, (SELECT COALESCE(SUM(d.chunk_count), 0) FROM documents d "
                    + "WHERE d.kb = k.name AND d.deleted = FALSE AND d.visible_version > 0) AS chunks "
                    + "FROM knowledge_bases k WHERE k.name = ?")) {
                ps.setString(1, name);
                try (ResultSet rs = ps.executeQuery()) {
                    return rs.next() ? Optional.of(new KnowledgeBaseInfo(rs.getString(1),
                            rs.getString(2), instant(rs, "created_at"), rs.getLong("docs"), rs.getLong("chunks")))
                            : Optional.<KnowledgeBaseInfo>empty();
                }
            }
        });
    }

    @Override
    public boolean createKnowledgeBase(String name, String description) {
        return jdbc.tx("create a knowledge base", c -> {
            try (PreparedStatement ps = c.prepareStatement("SELECT 1 FROM knowledge_bases WHERE name = ?")) {
                ps.setString(1, name);
                try (ResultSet rs = ps.executeQuery()) {
                    if (rs.next()) {
                        return false;
                    }
                }
            }
            int slash = name.indexOf('/');
            update(c, "INSERT INTO knowledge_bases (name, tenant, description, created_at) VALUES (?, ?, ?, ?)", name,
                    slash < 0 ? "" : name.substring(0, slash), description == null ? "" : clip(description, 1024),
                    jdbc.now());
            return true;
        });
    }

    @Override
    public boolean dropKnowledgeBase(String name) {
        return jdbc.tx("delete a knowledge base", c -> {
            JdbcJudgments.drop(c, name);
            return update(c, "DELETE FROM knowledge_bases WHERE name = ?", name) > 0;
        });
    }

    private static boolean exists(Connection c, String documentId) throws SQLException {
        try (PreparedStatement ps = c.prepareStatement("SELECT 1 FROM documents WHERE id = ?")) {
            ps.setString(1, documentId);
            try (ResultSet rs = ps.executeQuery()) {
                return rs.next();
            }
        }
    }

    private static void insertChunks(Connection c, List<Chunk> chunks) throws SQLException {
        try (PreparedStatement ps = c.prepareStatement("INSERT INTO chunks (id, document_id, version, ordinal, kind, "
                + "text, heading_path, start_offset, end_offset, token_count, embedding_model, location, figure) "
                + "VALUES (?,?,?,?,?,?,?,?,?,?,?,?,?)")) {
            for (Chunk ch : chunks) {
                ps.setString(1, ch.id());
                ps.setString(2, ch.documentId());
                ps.setLong(3, ch.version());
                ps.setInt(4, ch.ordinal());
                ps.setString(5, ch.kind().wireName());
                ps.setString(6, ch.text());
                ps.setString(7, String.join(String.valueOf(PATH_SEPARATOR), ch.headingPath()));
                ps.setInt(8, ch.startOffset());
                ps.setInt(9, ch.endOffset());
                ps.setInt(10, ch.tokenCount());
                ps.setString(11, clip(ch.embeddingModel(), 255));
                ps.setString(12, clip(ch.location(), 255));
                ps.setString(13, ch.figure() == null ? "" : clip(ch.figure().encode(), 2000));
                ps.addBatch();
            }
            ps.executeBatch();
        }
    }

    @Override
    public Optional<DocumentVersion> publish(DocumentVersion v) {
        return jdbc.tx("publish a document version", c -> publish(c, v));
    }

    @Override
    public List<Published> publishAll(List<DocumentVersion> versions) {
        return jdbc.tx("publish document versions", c -> {
            // Rows locked in document id order, so two writers publishing overlapping batches cannot deadlock.
            List<Integer> order = new ArrayList<>();
            for (int i = 0; i < versions.size(); i++) {
                order.add(i);
            }
            order.sort(Comparator.comparing(i -> versions.get(i).documentId()));
            Published[] out = new Published[versions.size()];
            for (int i : order) {
                try {
                    out[i] = new Published(publish(c, versions.get(i)), null);
                } catch (IllegalStateException e) {
                    // Refused before anything of it was written (not pending): the others go on.
                    out[i] = new Published(Optional.empty(), e.getMessage());
                }
            }
            return List.of(out);
        });
    }

    // style: one transaction's statements in order; cut, the lock and the checks would span methods
    private Optional<DocumentVersion> publish(Connection c, DocumentVersion v) throws SQLException {
        {
            // The document's row is the lock every change of its visible version takes (publish, abandon), so two
            // writers of one document (two workers, two replicas) are serialised here.
            long visible = 0;
            boolean deleted = false;
            try (PreparedStatement ps = c.prepareStatement(
                    "SELECT visible_version, deleted FROM documents WHERE id = ? FOR UPDATE")) {
                ps.setString(1, v.documentId());
                try (ResultSet rs = ps.executeQuery()) {
                    if (rs.next()) {
                        visible = rs.getLong(1);
                        deleted = rs.getBoolean(2);
                    }
                }
            }
            // This version's row (it must be pending) and the newest version any writer made visible, even if it
            // was deleted since (a slower writer's older version must not come back after a delete either), in one
            // read of the document's versions.
            String[] meta = null;
            long newest = visible;
            try (PreparedStatement ps = c.prepareStatement("SELECT version, state, title, media_type, content_hash, "
                    + "size_bytes, graph_chunks, figure_count FROM document_versions WHERE document_id = ?")) {
                ps.setString(1, v.documentId());
                try (ResultSet rs = ps.executeQuery()) {
                    while (rs.next()) {
                        long version = rs.getLong(1);
                        String state = rs.getString(2);
                        if (version == v.version()) {
                            meta = "pending".equals(state) ? new String[] {rs.getString(3), rs.getString(4),
                                rs.getString(5), rs.getString(6), rs.getString(7), rs.getString(8)} : null;
                        } else if (VISIBLE_ONCE.contains(state)) {
                            newest = Math.max(newest, version);
                        }
                    }
                }
            }
            if (meta == null) {
                throw new IllegalStateException("version " + v.version() + " of document " + v.documentId()
                        + " is not pending, so it cannot be published");
            }
            if (newest > v.version()) {
                // A newer version was published while this one was being written: it stays the visible one, and
                // this one goes the way of a replaced version.
                update(c, "DELETE FROM chunks WHERE document_id = ? AND version = ?", v.documentId(), v.version());
                update(c, "UPDATE document_versions SET state = 'replaced' WHERE document_id = ? AND version = ?",
                        v.documentId(), v.version());
                return Optional.of(v);
            }
            Optional<DocumentVersion> previous = visible > 0 && !deleted
                    ? Optional.of(new DocumentVersion(v.documentId(), visible)) : Optional.empty();
            if (visible > 0) {
                // Only the replaced version's chunks go: another writer's pending version keeps its own. (A document
                // never visible has neither: its first publish skips both statements.)
                update(c, "DELETE FROM chunks WHERE document_id = ? AND version = ?", v.documentId(), visible);
                update(c, "UPDATE document_versions SET state = 'replaced' WHERE document_id = ? AND state = "
                        + "'published'", v.documentId());
            }
            update(c, "UPDATE document_versions SET state = 'published' WHERE document_id = ? AND version = ?",
                    v.documentId(), v.version());
            int count = countChunks(c, v);
            try (PreparedStatement ps = c.prepareStatement("UPDATE documents SET title = ?, media_type = ?, "
                    + "content_hash = ?, size_bytes = ?, visible_version = ?, chunk_count = ?, deleted = FALSE, "
                    + "updated_at = ?, graph_chunks = ?, figure_count = ? WHERE id = ?")) {
                ps.setString(1, meta[0]);
                ps.setString(2, meta[1]);
                ps.setString(3, meta[2]);
                ps.setLong(4, Long.parseLong(meta[3]));
                ps.setLong(5, v.version());
                ps.setInt(6, count);
                ps.setObject(7, jdbc.now());
                ps.setInt(8, Integer.parseInt(meta[4]));
                ps.setInt(9, Integer.parseInt(meta[5]));
                ps.setString(10, v.documentId());
                ps.executeUpdate();
            }
            return previous;
        }
    }

    private static int countChunks(Connection c, DocumentVersion v) throws SQLException {
        try (PreparedStatement ps = c.prepareStatement(
                "SELECT COUNT(*) FROM chunks WHERE document_id = ? AND version = ?")) {
            ps.setString(1, v.documentId());
            ps.setLong(2, v.version());
            try (ResultSet rs = ps.executeQuery()) {
                rs.next();
                return rs.getInt(1);
            }
        }
    }

    @Override
    public boolean shared() {
        return shared;
    }

    @Override
    public boolean discard(DocumentVersion v) {
        return jdbc.tx("discard a document version", c -> {
            try (PreparedStatement ps = c.prepareStatement("SELECT 1 FROM documents WHERE id = ? FOR UPDATE")) {
                ps.setString(1, v.documentId());
                ps.executeQuery().close();
            }
            // 'abandoned' is purged like a replaced version: whatever a failed or dead writer left in the stores
            // is removed by whoever purges next.
            if (update(c, "UPDATE document_versions SET state = 'abandoned' WHERE document_id = ? AND version = ? "
                    + "AND state = 'pending'", v.documentId(), v.version()) == 0) {
                return false;
            }
            update(c, "DELETE FROM chunks WHERE document_id = ? AND version = ?", v.documentId(), v.version());
            // A document that never had a visible version and has nothing pending is forgotten.
            update(c, "DELETE FROM documents WHERE id = ? AND visible_version = 0 AND NOT EXISTS (SELECT 1 FROM "
                    + "document_versions WHERE document_id = ? AND state = 'pending')", v.documentId(), v.documentId());
            return true;
        });
    }

    @Override
    public List<DocumentVersion> pendingVersions() {
        return versionsIn("list pending versions", "'pending'", null);
    }

    @Override
    public List<DocumentVersion> pendingVersions(Duration olderThan) {
        return versionsIn("list abandoned pending versions", "'pending'", jdbc.now().minus(olderThan));
    }

    @Override
    public List<DocumentVersion> unpurgedVersions() {
        return versionsIn("list replaced and deleted versions", "'replaced', 'deleted', 'abandoned'", null);
    }

    private List<DocumentVersion> versionsIn(String what, String states, OffsetDateTime stagedBefore) {
        return jdbc.tx(what, c -> {
            List<DocumentVersion> out = new ArrayList<>();
            try (PreparedStatement ps = c.prepareStatement("SELECT document_id, version FROM document_versions "
                    + "WHERE state IN (" + states + ")" + (stagedBefore == null ? "" : " AND created_at < ?")
                    + " ORDER BY document_id, version")) {
                if (stagedBefore != null) {
                    ps.setObject(1, stagedBefore);
                }
                try (ResultSet rs = ps.executeQuery()) {
                    while (rs.next()) {
                        out.add(new DocumentVersion(rs.getString(1), rs.getLong(2)));
                    }
                }
            }
            return out;
        });
    }

    @Override
    public void markPurged(Collection<DocumentVersion> versions) {
        if (versions.isEmpty()) {
            return;
        }
        jdbc.tx("mark versions purged", c -> {
            try (PreparedStatement ps = c.prepareStatement("UPDATE document_versions SET state = 'purged' "
                    + "WHERE document_id = ? AND version = ? AND state IN ('replaced', 'deleted', 'abandoned')")) {
                for (DocumentVersion v : versions) {
                    ps.setString(1, v.documentId());
                    ps.setLong(2, v.version());
                    ps.addBatch();
                }
                ps.executeBatch();
            }
            try (PreparedStatement ps = c.prepareStatement(PRUNE + " AND document_id = ?")) {
                for (String id : versions.stream().map(DocumentVersion::documentId).distinct().sorted().toList()) {
                    ps.setString(1, id);
                    ps.addBatch();
                }
                ps.executeBatch();
            }
            return null;
        });
    }

    /**
     * The rows of purged versions a document no longer needs: each but its newest version that was ever visible. A
     * purged version is gone from every store, so its row only ever mattered as the document's high-water mark —
     * publishing reads the newest version any writer made visible, so that a slower writer's older version cannot
     * come back after a newer one or a delete — and that is the newest such row, which is kept. Without this, every
     * update of a document left a row for good (48,840 rows for 4,182 documents after a 30-minute soak). The same
     * statement, over every document, is migration V17.
     */
    private static final String PRUNE = "DELETE FROM document_versions WHERE state = 'purged' AND version < (SELECT "
            + "MAX(n.version) FROM document_versions n WHERE n.document_id = document_versions.document_id AND "
            + "n.state IN ('published', 'replaced', 'deleted', 'purged'))";

    /** Rows in the versions table (tests: that purged versions' rows go). */
    long versionRows() {
        return jdbc.tx("count version rows", c -> {
            try (PreparedStatement ps = c.prepareStatement("SELECT COUNT(*) FROM document_versions");
                    ResultSet rs = ps.executeQuery()) {
                rs.next();
                return rs.getLong(1);
            }
        });
    }

    @Override
    public List<VersionRecords> visibleVersions() {
        return jdbc.tx("list visible versions", c -> {
            List<VersionRecords> out = new ArrayList<>();
            try (PreparedStatement ps = c.prepareStatement("SELECT id, visible_version, kb, chunk_count, graph_chunks "
                    + "FROM documents WHERE deleted = FALSE AND visible_version > 0 ORDER BY id");
                    ResultSet rs = ps.executeQuery()) {
                while (rs.next()) {
                    out.add(new VersionRecords(new DocumentVersion(rs.getString(1),
                            rs.getLong(2)), rs.getString(3), rs.getInt(4), rs.getInt(5)));
                }
            }
            return out;
        });
    }

    @Override
    public List<VersionRecords> unextracted(int limit) {
        return jdbc.tx("list versions indexed without extraction", c -> {
            List<VersionRecords> out = new ArrayList<>();
            try (PreparedStatement ps = c.prepareStatement("SELECT id, visible_version, kb, chunk_count, graph_chunks "
                    + "FROM documents WHERE deleted = FALSE AND visible_version > 0 AND graph_chunks = ? ORDER BY id "
                    + "LIMIT ?")) {
                ps.setInt(1, VersionRecords.NOT_EXTRACTED);
                ps.setInt(2, limit);
                try (ResultSet rs = ps.executeQuery()) {
                    while (rs.next()) {
                        out.add(new VersionRecords(new DocumentVersion(rs.getString(1),
                                rs.getLong(2)), rs.getString(3), rs.getInt(4), rs.getInt(5)));
                    }
                }
            }
            return out;
        });
    }

    @Override
    public void recordGraph(DocumentVersion v, int graphChunks) {
        jdbc.tx("record a version's graph count", c -> {
            update(c, "UPDATE document_versions SET graph_chunks = ? WHERE document_id = ? AND version = ?",
                    graphChunks, v.documentId(), v.version());
            update(c, "UPDATE documents SET graph_chunks = ? WHERE id = ? AND visible_version = ?", graphChunks,
                    v.documentId(), v.version());
            return null;
        });
    }

    @Override
    public Totals totals() {
        return jdbc.tx("count visible records", c -> {
            try (PreparedStatement ps = c.prepareStatement("SELECT COALESCE(SUM(chunk_count), 0), "
                    + "COALESCE(SUM(CASE WHEN graph_chunks > 0 THEN graph_chunks ELSE 0 END), 0), "
                    + "COUNT(CASE WHEN graph_chunks < 0 THEN 1 END) FROM documents "
                    + "WHERE deleted = FALSE AND visible_version > 0"); ResultSet rs = ps.executeQuery()) {
                rs.next();
                return new Totals(rs.getLong(1), rs.getLong(2), rs.getLong(3) > 0);
            }
        });
    }

    @Override
    public List<DocumentVersion> delete(Collection<String> documentIds) {
        return jdbc.tx("delete documents", c -> {
            List<DocumentVersion> removed = new ArrayList<>();
            for (String id : documentIds.stream().distinct().sorted().toList()) {
                try (PreparedStatement ps = c.prepareStatement(
                        "SELECT visible_version FROM documents WHERE id = ? AND deleted = FALSE FOR UPDATE")) {
                    ps.setString(1, id);
                    try (ResultSet rs = ps.executeQuery()) {
                        if (!rs.next()) {
                            continue;
                        }
                        if (rs.getLong(1) > 0) {
                            removed.add(new DocumentVersion(id, rs.getLong(1)));
                        }
                    }
                }
                update(c, "UPDATE documents SET deleted = TRUE, visible_version = 0, chunk_count = 0, updated_at = ? "
                        + "WHERE id = ?", jdbc.now(), id);
                update(c, "UPDATE document_versions SET state = 'deleted' WHERE document_id = ? AND state = "
                        + "'published'", id);
                update(c, "DELETE FROM chunks WHERE document_id = ? AND version IN (SELECT version FROM "
                        + "document_versions WHERE document_id = ? AND state <> 'pending')", id, id);
            }
            return removed;
        });
    }

    @Override
    public Map<String, ChunkView> resolve(Collection<String> chunkIds, SearchScope scope) {
        if (chunkIds.isEmpty()) {
            return Map.of();
        }
        return search.tx("resolve chunks", c -> {
            String sql = "SELECT c.*, d.kb, d.uri, d.title AS doc_title, d.figure_count FROM chunks c JOIN documents d "
                    + "ON d.id = c.document_id AND d.visible_version = c.version "
                    + "WHERE d.deleted = FALSE AND c.id = ANY(?)" + scopeClause(scope, "d.");
            Map<String, ChunkView> out = new HashMap<>();
            try (PreparedStatement ps = c.prepareStatement(sql)) {
                Array ids = c.createArrayOf("VARCHAR", chunkIds.stream().distinct().toArray());
                ps.setArray(1, ids);
                bindScope(c, ps, 2, scope);
                try (ResultSet rs = ps.executeQuery()) {
                    while (rs.next()) {
                        Chunk ch = chunk(rs);
                        out.put(ch.id(), new ChunkView(ch, rs.getString("kb"), rs.getString("uri"),
                                rs.getString("doc_title"), rs.getInt("figure_count")));
                    }
                }
            }
            return out;
        });
    }

    @Override
    public List<Chunk> figures(Collection<DocumentVersion> versions) {
        if (versions.isEmpty()) {
            return List.of();
        }
        return search.tx("read figures", c -> {
            List<Chunk> out = new ArrayList<>();
            // One indexed probe per document: its visible version's figure chunks (most documents have none).
            try (PreparedStatement ps = c.prepareStatement("SELECT c.* FROM chunks c JOIN documents d ON d.id = "
                    + "c.document_id AND d.visible_version = c.version WHERE d.deleted = FALSE AND c.document_id = "
                    + "ANY(?) AND c.kind = 'figure' ORDER BY c.document_id, c.ordinal")) {
                ps.setArray(1, c.createArrayOf("VARCHAR", versions.stream().map(DocumentVersion::documentId)
                        .distinct().toArray()));
                Set<DocumentVersion> wanted = new HashSet<>(versions);
                try (ResultSet rs = ps.executeQuery()) {
                    while (rs.next()) {
                        Chunk ch = chunk(rs);
                        if (wanted.contains(new DocumentVersion(ch.documentId(), ch.version()))) {
                            out.add(ch);
                        }
                    }
                }
            }
            return out;
        });
    }

    @Override
    public List<Chunk> chunks(String documentId, long version, int fromOrdinal, int toOrdinal) {
        return search.tx("read neighbouring chunks", c -> {
            List<Chunk> out = new ArrayList<>();
            try (PreparedStatement ps = c.prepareStatement("SELECT c.* FROM chunks c JOIN documents d ON d.id = "
                    + "c.document_id AND d.visible_version = c.version WHERE d.deleted = FALSE AND c.document_id = ? "
                    + "AND c.version = ? AND c.ordinal BETWEEN ? AND ? ORDER BY c.ordinal")) {
                ps.setString(1, documentId);
                ps.setLong(2, version);
                ps.setInt(3, fromOrdinal);
                ps.setInt(4, toOrdinal);
                try (ResultSet rs = ps.executeQuery()) {
                    while (rs.next()) {
                        out.add(chunk(rs));
                    }
                }
            }
            return out;
        });
    }

    @Override
    public List<DocumentInfo> documents(SearchScope scope, Set<DocumentStatus> statuses, int offset, int limit) {
        if (statuses.isEmpty()) {
            return List.of();
        }
        return jdbc.tx("list documents", c -> {
            String sql = "SELECT d.*, " + PENDING + " AS pending FROM documents d WHERE d.deleted = FALSE"
                    + statusClause(statuses) + scopeClause(scope, "d.") + " ORDER BY d.uri, d.id LIMIT ? OFFSET ?";
            List<DocumentInfo> out = new ArrayList<>();
            try (PreparedStatement ps = c.prepareStatement(sql)) {
                int i = bindScope(c, ps, 1, scope);
                ps.setInt(i, limit);
                ps.setInt(i + 1, offset);
                try (ResultSet rs = ps.executeQuery()) {
                    while (rs.next()) {
                        out.add(documentInfo(rs));
                    }
                }
            }
            return out;
        });
    }

    @Override
    public long countDocuments(SearchScope scope, Set<DocumentStatus> statuses) {
        if (statuses.isEmpty()) {
            return 0;
        }
        return jdbc.tx("count documents", c -> {
            String sql = "SELECT COUNT(*) FROM documents d WHERE d.deleted = FALSE" + statusClause(statuses)
                    + scopeClause(scope, "d.");
            try (PreparedStatement ps = c.prepareStatement(sql)) {
                bindScope(c, ps, 1, scope);
                try (ResultSet rs = ps.executeQuery()) {
                    rs.next();
                    return rs.getLong(1);
                }
            }
        });
    }

    /** The SQL condition for "one of these statuses"; empty when every status is admitted. */
    private static String statusClause(Set<DocumentStatus> statuses) {
        if (statuses.containsAll(EnumSet.allOf(DocumentStatus.class))) {
            return "";
        }
        List<String> any = new ArrayList<>();
        for (DocumentStatus s : statuses) {
            any.add(switch (s) {
                case INDEXING -> "d.visible_version = 0";
                case INDEXED -> "(d.visible_version > 0 AND NOT " + PENDING + ")";
                case UPDATING -> "(d.visible_version > 0 AND " + PENDING + ")";
            });
        }
        return statuses.equals(DocumentStatus.VISIBLE) ? " AND d.visible_version > 0"
                : " AND (" + String.join(" OR ", any) + ")";
    }

    private static String scopeClause(SearchScope scope, String alias) {
        return (scope.knowledgeBases().isEmpty() ? "" : " AND " + alias + "kb = ANY(?)")
                + (scope.documentIds().isEmpty() ? "" : " AND " + alias + "id = ANY(?)")
                + (scope.category() == null ? "" : " AND " + alias + "categories LIKE ? ESCAPE '!'");
    }

    /** Binds the scope's parameter if it has one; returns the next parameter index. */
    private static int bindScope(Connection c, PreparedStatement ps, int index, SearchScope scope)
            throws SQLException {
        if (!scope.knowledgeBases().isEmpty()) {
            ps.setArray(index++, c.createArrayOf("VARCHAR", scope.knowledgeBases().stream().sorted().toArray()));
        }
        if (!scope.documentIds().isEmpty()) {
            ps.setArray(index++, c.createArrayOf("VARCHAR", scope.documentIds().stream().sorted().toArray()));
        }
        if (scope.category() != null) {
            // Categories are stored as ",a,b,": a whole category matches, never part of one.
            ps.setString(index++, "%," + scope.category().replace("!", "!!").replace("%", "!%").replace("_", "!_")
                    + ",%");
        }
        return index;
    }

    private static Chunk chunk(ResultSet rs) throws SQLException {
        String path = rs.getString("heading_path");
        List<String> headings = path.isEmpty() ? List.of()
                : Arrays.asList(path.split(String.valueOf(PATH_SEPARATOR), -1));
        return new Chunk(rs.getString("id"), rs.getString("document_id"), rs.getLong("version"), rs.getInt("ordinal"),
                ChunkKind.parse(rs.getString("kind")), rs.getString("text"), headings, rs.getInt("start_offset"),
                rs.getInt("end_offset"), rs.getInt("token_count"), rs.getString("embedding_model"),
                rs.getString("location"), Figure.decode(rs.getString("figure")));
    }

    private static DocumentInfo documentInfo(ResultSet rs) throws SQLException {
        String cats = rs.getString("categories");
        return new DocumentInfo(rs.getString("id"), rs.getString("kb"), rs.getString("uri"), rs.getString("title"),
                rs.getString("media_type"), rs.getString("content_hash"), rs.getLong("size_bytes"),
                rs.getLong("visible_version"), rs.getInt("chunk_count"), instant(rs, "updated_at"),
                new DocumentMeta(cats == null || cats.length() < 2 ? List.of()
                        : Arrays.asList(cats.substring(1, cats.length() - 1).split(",")),
                        rs.getString("subcategory"), rs.getString("external_ref")), rs.getBoolean("pending"));
    }

    @Override
    public Optional<VersionRecords> visibleRecords(String documentId) {
        return jdbc.tx("read a document's records", c -> {
            try (PreparedStatement ps = c.prepareStatement("SELECT visible_version, kb, chunk_count, graph_chunks "
                    + "FROM documents WHERE id = ? AND deleted = FALSE AND visible_version > 0")) {
                ps.setString(1, documentId);
                try (ResultSet rs = ps.executeQuery()) {
                    return rs.next() ? Optional.of(new VersionRecords(new DocumentVersion(
                            documentId, rs.getLong(1)), rs.getString(2), rs.getInt(3), rs.getInt(4)))
                            : Optional.<VersionRecords>empty();
                }
            }
        });
    }

    @Override
    public boolean describe(String documentId, String title, DocumentMeta meta) {
        String cats = meta.categories().isEmpty() ? "" : "," + String.join(",", meta.categories()) + ",";
        return jdbc.tx("describe a document", c -> update(c, "UPDATE documents SET categories = ?, subcategory = ?, "
                + "external_ref = ?, title = COALESCE(?, title) WHERE id = ? AND deleted = FALSE", clip(cats, 4096),
                clip(meta.subcategory(), 200), clip(meta.externalRef(), 1024), title == null ? null : clip(title, 1024),
                documentId) > 0);
    }

    static Instant instant(ResultSet rs, String column) throws SQLException {
        OffsetDateTime t = rs.getObject(column, OffsetDateTime.class);
        return t == null ? null : t.toInstant();
    }

    static int update(Connection c, String sql, Object... args) throws SQLException {
        try (PreparedStatement ps = c.prepareStatement(sql)) {
            for (int i = 0; i < args.length; i++) {
                ps.setObject(i + 1, args[i]);
            }
            return ps.executeUpdate();
        }
    }

    static String clip(String s, int max) {
        return s == null ? "" : s.length() <= max ? s : s.substring(0, max);
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
