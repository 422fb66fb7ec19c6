package io.polyrag.store.catalog;

import io.polyrag.core.model.Chunk;
import io.polyrag.core.model.ChunkKind;
import io.polyrag.core.model.ChunkView;
import io.polyrag.core.model.DocumentInfo;
import io.polyrag.core.model.DocumentMeta;
import io.polyrag.core.model.DocumentStatus;
import io.polyrag.core.model.DocumentVersion;
import io.polyrag.core.model.Figure;
import io.polyrag.core.model.KnowledgeBaseInfo;
import io.polyrag.core.model.SearchScope;
import io.polyrag.core.model.VersionRecords;
import io.polyrag.core.port.Catalog;
import java.sql.Array;
import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.time.Duration;
import java.time.Instant;
import java.time.OffsetDateTime;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.Collection;
import java.util.EnumSet;
import java.util.HashMap;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;

/**
 * The catalog's reads: documents and their versions, knowledge bases, chunks for hits and neighbours, what recovery
 * and the consistency check look at. The search path's reads go through {@link #search}, their own pool where there
 * are pools. {@link CatalogWrites} adds the version lifecycle, {@link JdbcCatalog} the schema and the other roles.
 */
abstract class CatalogReads implements Catalog {
    static final char PATH_SEPARATOR = '\u001f';

    /** States of a version that was made visible once (published, then maybe replaced or deleted since). */
    static final Set<String> VISIBLE_ONCE = Set.of("published", "replaced", "deleted", "purged");

    /** Whether a document has a version being written. */
    static final String PENDING = "EXISTS (SELECT 1 FROM document_versions p WHERE p.document_id = d.id "
            + "AND p.state = 'pending')";

    final Jdbc jdbc;
    /** The search path's reads (hits to chunks, neighbours, cached answers): their own pool where there are pools. */
    final Jdbc search;

    CatalogReads(Jdbc jdbc, Jdbc search) {
        this.jdbc = jdbc;
        this.search = search;
    }

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
    public Map<String, Long> allocatedVersions(Collection<String> documentIds) {
        Map<String, Long> out = new HashMap<>();
        List<String> ids = documentIds.stream().distinct().toList();
        for (int from = 0; from < ids.size(); from += 1000) {
            List<String> batch = ids.subList(from, Math.min(ids.size(), from + 1000));
            jdbc.tx("read allocated versions", c -> {
                try (PreparedStatement ps = c.prepareStatement("SELECT document_id, last_version FROM version_counters "
                        + "WHERE document_id = ANY(?)")) {
                    ps.setArray(1, c.createArrayOf("VARCHAR", batch.toArray()));
                    try (ResultSet rs = ps.executeQuery()) {
                        while (rs.next()) {
                            out.put(rs.getString(1), rs.getLong(2));
                        }
                    }
                }
                return null;
            });
        }
        return out;
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
    public List<String> knowledgeBases(String tenant) {
        // Every search reads it (its scope): on the search pool, never waiting behind writes.
        return search.tx("list knowledge bases", c -> {
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
    public List<KnowledgeBaseInfo> knowledgeBaseInfos(String tenant) {
        return knowledgeBasesWhere("k.tenant = ?", tenant == null ? "" : tenant);
    }

    @Override
    public Optional<KnowledgeBaseInfo> knowledgeBase(String name) {
        return knowledgeBasesWhere("k.name = ?", name).stream().findFirst();
    }

    /** The knowledge bases {@code where} selects (one parameter), by name, each with its visible documents' counts. */
    private List<KnowledgeBaseInfo> knowledgeBasesWhere(String where, String arg) {
        return jdbc.tx("read knowledge bases", c -> {
            try (PreparedStatement ps = c.prepareStatement("SELECT k.name, k.description, k.created_at, "
                    + "COUNT(d.id) AS docs, COALESCE(SUM(d.chunk_count), 0) AS chunks FROM knowledge_bases k "
                    + "LEFT JOIN documents d ON d.kb = k.name AND d.deleted = FALSE AND d.visible_version > 0 "
                    + "WHERE " + where + " GROUP BY k.name, k.description, k.created_at ORDER BY k.name")) {
                ps.setString(1, arg);
                try (ResultSet rs = ps.executeQuery()) {
                    List<KnowledgeBaseInfo> out = new ArrayList<>();
                    while (rs.next()) {
                        out.add(new KnowledgeBaseInfo(rs.getString(1), rs.getString(2), instant(rs, "created_at"),
                                rs.getLong("docs"), rs.getLong("chunks")));
                    }
                    return out;
                }
            }
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
    public void ping() {
        jdbc.tx("read the catalog", c -> {
            try (PreparedStatement ps = c.prepareStatement("SELECT 1 FROM documents LIMIT 1");
                    ResultSet rs = ps.executeQuery()) {
                return rs.next();
            }
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
        return Chunk.builder(rs.getString("document_id"), rs.getLong("version"), rs.getInt("ordinal"))
                .id(rs.getString("id")).kind(ChunkKind.parse(rs.getString("kind"))).text(rs.getString("text"))
                .headingPath(headings).offsets(rs.getInt("start_offset"), rs.getInt("end_offset"))
                .tokenCount(rs.getInt("token_count")).embeddingModel(rs.getString("embedding_model"))
                .location(rs.getString("location")).figure(Figure.decode(rs.getString("figure"))).build();
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

    /**
     * A document's uri as stored: at most {@value #URI_BYTES} bytes of UTF-8, whole characters (every ASCII uri the
     * API takes, 2,048 characters, whole). PostgreSQL's index on (kb, uri) refuses a row over 2,704 bytes: a uri of
     * 1,200 Chinese characters (3,600 bytes) failed its batch at every try there, and H2 took it.
     */
    static String clipUri(String uri) {
        String t = clip(uri, 4096);
        int bytes = 0;
        for (int i = 0; i < t.length(); ) {
            int cp = t.codePointAt(i);
            bytes += cp < 0x80 ? 1 : cp < 0x800 ? 2 : cp < 0x10000 ? 3 : 4;
            if (bytes > URI_BYTES) {
                return t.substring(0, i);
            }
            i += Character.charCount(cp);
        }
        return t;
    }

    static final int URI_BYTES = 2_400;

    /**
     * {@code s} cut to {@code max} characters, without NUL characters: PostgreSQL refuses them in text (a PDF's title
     * in a two-byte encoding without its mark decodes with NULs between the letters), and the refusal failed the
     * whole batch being staged; H2 kept them.
     */
    static String clip(String s, int max) {
        String t = s == null ? "" : s.indexOf('\u0000') < 0 ? s : s.replace("\u0000", "");
        return t.length() <= max ? t : t.substring(0, max);
    }
}
