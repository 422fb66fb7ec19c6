package io.polyrag.store.catalog;

import io.polyrag.core.model.Chunk;
import io.polyrag.core.model.DocumentDraft;
import io.polyrag.core.model.DocumentMeta;
import io.polyrag.core.model.DocumentVersion;
import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.util.ArrayList;
import java.util.Collection;
import java.util.Comparator;
import java.util.HashSet;
import java.util.List;
import java.util.Optional;
import java.util.Set;

/**
 * The version lifecycle's writes: version numbers, staging a batch, publishing it (the visible version moves in one
 * transaction), discarding, deleting, marking purged, recording a version's graph and a document's description.
 */
abstract class CatalogWrites extends CatalogReads {

    CatalogWrites(Jdbc jdbc, Jdbc search) {
        super(jdbc, search);
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
            stage(c, d, version, new HashSet<>(), locked(c, List.of(d)));
            return null;
        });
    }

    @Override
    public void stageAll(List<DocumentDraft> drafts, List<Long> versions) {
        jdbc.tx("stage document versions", c -> {
            Set<String> knowledgeBases = new HashSet<>();
            Set<String> existing = locked(c, drafts);
            for (int i = 0; i < drafts.size(); i++) {
                stage(c, drafts.get(i), versions.get(i), knowledgeBases, existing);
            }
            return null;
        });
    }

    /**
     * Locks the drafts' document rows, in id order (as a publish does), and says which exist. Read unlocked, a
     * first version's discard could delete the row between this read and this stage's commit (it saw no other
     * version pending, this one not being committed yet), and the version published later had no document to show
     * it; locked, the discard waits, or this stage waits for it and then makes the row.
     */
    private static Set<String> locked(Connection c, List<DocumentDraft> drafts) throws SQLException {
        Set<String> existing = new HashSet<>();
        try (PreparedStatement ps = c.prepareStatement("SELECT id FROM documents WHERE id = ANY(?) ORDER BY id "
                + "FOR UPDATE")) {
            ps.setArray(1, c.createArrayOf("VARCHAR", drafts.stream().map(DocumentDraft::id).distinct().sorted()
                    .toArray()));
            try (ResultSet rs = ps.executeQuery()) {
                while (rs.next()) {
                    existing.add(rs.getString(1));
                }
            }
        }
        return existing;
    }

    /** Stages one version; {@code knowledgeBases} holds those this transaction already made sure exist. */
    private void stage(Connection c, DocumentDraft d, long version, Set<String> knowledgeBases, Set<String> existing)
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
            if (existing.add(d.id())) {
                try (PreparedStatement ps = c.prepareStatement("INSERT INTO documents (id, kb, uri, title, media_type, "
                        + "content_hash, size_bytes, visible_version, chunk_count, deleted, updated_at) "
                        + "VALUES (?,?,?,?,?,?,?,0,0,FALSE,?)")) {
                    ps.setString(1, d.id());
                    ps.setString(2, d.knowledgeBase());
                    ps.setString(3, clipUri(d.uri()));
                    ps.setString(4, clip(d.title(), 1024));
                    ps.setString(5, clip(d.mediaType(), 255));
                    ps.setString(6, d.contentHash());
                    ps.setLong(7, d.sizeBytes());
                    ps.setObject(8, jdbc.now());
                    ps.executeUpdate();
                }
            } else {
                // A document deleted before and ingested again (the same name): its row is the deleted one. Made
                // current again, as a document being indexed: left deleted, the new version was invisible to every
                // read and to a delete (the document came back after a delete that answered 404). Not for a slow
                // writer's version older than one made visible before the delete: that one stays deleted.
                try (PreparedStatement ps = c.prepareStatement("UPDATE documents SET deleted = FALSE, "
                        + "visible_version = 0, chunk_count = 0, uri = ?, title = ?, media_type = ?, content_hash = ?, "
                        + "size_bytes = ?, updated_at = ? WHERE id = ? AND deleted = TRUE AND NOT EXISTS (SELECT 1 FROM "
                        + "document_versions v WHERE v.document_id = ? AND v.version > ? AND v.state IN ('published', "
                        + "'replaced', 'deleted', 'purged'))")) {
                    ps.setString(1, clipUri(d.uri()));
                    ps.setString(2, clip(d.title(), 1024));
                    ps.setString(3, clip(d.mediaType(), 255));
                    ps.setString(4, d.contentHash());
                    ps.setLong(5, d.sizeBytes());
                    ps.setObject(6, jdbc.now());
                    ps.setString(7, d.id());
                    ps.setString(8, d.id());
                    ps.setLong(9, version);
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
        // Locked to this stage's commit: a drop of the knowledge base waits, then sees this document and keeps it.
        // Shared on PostgreSQL, so stages into one knowledge base (from several replicas) do not queue on each other;
        // H2 has no shared row lock, and serves one process, whose stages are short.
        String lock = c.getMetaData().getDatabaseProductName().equals("PostgreSQL") ? " FOR SHARE" : " FOR UPDATE";
        try (PreparedStatement ps = c.prepareStatement("SELECT 1 FROM knowledge_bases WHERE name = ?" + lock)) {
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
            // The row locked first: a stage into it holds it until its commit (ensureKnowledgeBase), so the check
            // below, a statement of its own, sees that stage's document. Checked on the same snapshot as the delete,
            // a document staged between the caller's last empty page and this drop was left in no knowledge base:
            // invisible, uncounted, back with a knowledge base made again under the name.
            try (PreparedStatement ps = c.prepareStatement("SELECT 1 FROM knowledge_bases WHERE name = ? FOR UPDATE")) {
                ps.setString(1, name);
                try (ResultSet rs = ps.executeQuery()) {
                    if (!rs.next()) {
                        return true;
                    }
                }
            }
            try (PreparedStatement ps = c.prepareStatement("SELECT 1 FROM documents WHERE kb = ? AND deleted = FALSE "
                    + "LIMIT 1")) {
                ps.setString(1, name);
                try (ResultSet rs = ps.executeQuery()) {
                    if (rs.next()) {
                        return false;
                    }
                }
            }
            JdbcJudgments.drop(c, name);
            update(c, "DELETE FROM knowledge_bases WHERE name = ?", name);
            return true;
        });
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
                throw new IllegalStateException(deleted ? "document " + v.documentId() + " was deleted while "
                        + "version " + v.version() + " was written" : "version " + v.version() + " of document "
                        + v.documentId() + " is not pending, so it cannot be published");
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
                if (ps.executeUpdate() == 0) {
                    // Never with staging's lock; if it were, a version published with no document would be lost.
                    throw new IllegalStateException("document " + v.documentId() + " has no row to publish version "
                            + v.version() + " into");
                }
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
    public void markPurged(Collection<DocumentVersion> versions) {
        if (versions.isEmpty()) {
            return;
        }
        jdbc.tx("mark versions purged", c -> {
            // An abandoned version was never visible: purged, it is 'discarded', so that it never counts as a newer
            // version an older attempt would be superseded by (as 'purged' it did: the older one was dropped).
            try (PreparedStatement ps = c.prepareStatement("UPDATE document_versions SET state = CASE WHEN state = "
                    + "'abandoned' THEN 'discarded' ELSE 'purged' END WHERE document_id = ? AND version = ? AND state "
                    + "IN ('replaced', 'deleted', 'abandoned')")) {
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
     * The rows of purged versions a document no longer needs: each below its newest version that was ever visible;
     * and every discarded one. A purged version is gone from every store, so its row only ever mattered as the
     * document's high-water mark — publishing reads the newest version any writer made visible, so that a slower
     * writer's older version cannot come back after a newer one or a delete — and that is the newest such row, which
     * is kept. A discarded version was never visible and marks nothing (version numbers come from
     * {@code version_counters}): kept, a file whose first write failed at every sync left a row per attempt for good.
     * Without this, every update of a document left a row for good (48,840 rows for 4,182 documents after a 30-minute
     * soak). Migration V17 pruned purged rows the same way over every document.
     */
    private static final String PRUNE = "DELETE FROM document_versions WHERE (state = 'discarded' OR state = 'purged' "
            + "AND version < (SELECT "
            + "MAX(n.version) FROM document_versions n WHERE n.document_id = document_versions.document_id AND "
            + "n.state IN ('published', 'replaced', 'deleted', 'purged')))";

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
                // Its description goes with it: the same name ingested again has the same id and is a new document.
                update(c, "UPDATE documents SET deleted = TRUE, visible_version = 0, chunk_count = 0, updated_at = ?, "
                        + "categories = '', subcategory = '', external_ref = '' WHERE id = ?", jdbc.now(), id);
                update(c, "UPDATE document_versions SET state = 'deleted' WHERE document_id = ? AND state = "
                        + "'published'", id);
                // A version still being written is given up too: published after the delete, it brought the
                // document back (publishing clears the flag), a delete answered 204 or 404 and then undone.
                update(c, "UPDATE document_versions SET state = 'abandoned' WHERE document_id = ? AND state = "
                        + "'pending'", id);
                update(c, "DELETE FROM chunks WHERE document_id = ? AND version IN (SELECT version FROM "
                        + "document_versions WHERE document_id = ? AND state <> 'pending')", id, id);
            }
            return removed;
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
}
