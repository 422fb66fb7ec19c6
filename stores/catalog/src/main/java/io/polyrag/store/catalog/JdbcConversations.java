package io.polyrag.store.catalog;

import io.polyrag.core.port.ConversationStore;
import io.polyrag.core.port.ConversationStore.Conversation;
import io.polyrag.core.port.ConversationStore.Written;
import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.time.Instant;
import java.time.OffsetDateTime;
import java.time.ZoneOffset;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import java.util.function.Function;

/** Conversation rows: one per tenant and id, the messages as JSON. */
final class JdbcConversations implements ConversationStore {
    private final Jdbc jdbc;

    JdbcConversations(Jdbc jdbc) {
        this.jdbc = jdbc;
    }

    Optional<Conversation> get(String tenant, String id) {
        return jdbc.tx("read a conversation", c -> {
            try (PreparedStatement ps = c.prepareStatement("SELECT * FROM conversations WHERE tenant = ? AND id = ?")) {
                ps.setString(1, tenant);
                ps.setString(2, id);
                try (ResultSet rs = ps.executeQuery()) {
                    return rs.next() ? Optional.of(row(rs, true)) : Optional.<Conversation>empty();
                }
            }
        });
    }

    List<Conversation> list(String tenant, int offset, int limit) {
        return jdbc.tx("list conversations", c -> {
            try (PreparedStatement ps = c.prepareStatement("SELECT tenant, id, title, '' AS messages, turns, "
                    + "created_at, updated_at FROM conversations WHERE tenant = ? ORDER BY updated_at DESC, id "
                    + "LIMIT ? OFFSET ?")) {
                ps.setString(1, tenant);
                ps.setInt(2, limit);
                ps.setInt(3, offset);
                try (ResultSet rs = ps.executeQuery()) {
                    List<Conversation> out = new ArrayList<>();
                    while (rs.next()) {
                        out.add(row(rs, false));
                    }
                    return out;
                }
            }
        });
    }

    /**
     * Reads the row locked, then updates or inserts it, in one transaction; two first messages inserted at once
     * collide on the key, and the loser's transaction is run again (it then finds the winner's row).
     */
    void change(String tenant, String id, Function<String, Written> change) {
        jdbc.tx("keep a conversation", c -> {
            String current = null;
            boolean exists;
            try (PreparedStatement ps = c.prepareStatement("SELECT messages FROM conversations WHERE tenant = ? "
                    + "AND id = ? FOR UPDATE")) {
                ps.setString(1, tenant);
                ps.setString(2, id);
                try (ResultSet rs = ps.executeQuery()) {
                    exists = rs.next();
                    if (exists) {
                        current = rs.getString(1);
                    }
                }
            }
            Written w = change.apply(current);
            if (w == null) {
                return null;
            }
            if (exists) {
                JdbcCatalog.update(c, "UPDATE conversations SET title = COALESCE(?, title), messages = ?, turns = ?, "
                        + "updated_at = ? WHERE tenant = ? AND id = ?", w.title(), w.messages(), w.turns(), jdbc.now(),
                        tenant, id);
            } else {
                evictBeyond(c, tenant, ConversationStore.MAX_PER_TENANT - 1);
                JdbcCatalog.update(c, "INSERT INTO conversations (tenant, id, title, messages, turns, created_at, "
                        + "updated_at) VALUES (?, ?, ?, ?, ?, ?, ?)", tenant, id, w.title() == null ? "" : w.title(),
                        w.messages(), w.turns(), jdbc.now(), jdbc.now());
            }
            return null;
        });
    }

    /**
     * Deletes the tenant's least recently written conversations beyond {@code keep}: a client starting a new one at
     * every request (each holding up to the whole transcript it sent) filled the shared catalog.
     */
    private static void evictBeyond(Connection c, String tenant, int keep) throws SQLException {
        int count;
        try (PreparedStatement ps = c.prepareStatement("SELECT COUNT(*) FROM conversations WHERE tenant = ?")) {
            ps.setString(1, tenant);
            try (ResultSet rs = ps.executeQuery()) {
                rs.next();
                count = rs.getInt(1);
            }
        }
        if (count <= keep) {
            return;
        }
        // At most a hundred a new conversation: a tenant far past the bound (after an upgrade) is brought back to it
        // over its next conversations, not in one request's transaction.
        List<String> old = new ArrayList<>();
        try (PreparedStatement ps = c.prepareStatement("SELECT id FROM conversations WHERE tenant = ? ORDER BY "
                + "updated_at, id LIMIT " + Math.min(100, count - keep))) {
            ps.setString(1, tenant);
            try (ResultSet rs = ps.executeQuery()) {
                while (rs.next()) {
                    old.add(rs.getString(1));
                }
            }
        }
        for (String id : old) {
            JdbcCatalog.update(c, "DELETE FROM conversations WHERE tenant = ? AND id = ?", tenant, id);
        }
    }

    boolean delete(String tenant, String id) {
        return jdbc.tx("delete a conversation", c -> JdbcCatalog.update(c, "DELETE FROM conversations WHERE tenant = ? "
                + "AND id = ?", tenant, id)) > 0;
    }

    /**
     * Deletes the conversations last written before {@code cutoff}, a thousand a transaction: the first sweep after
     * a long stop (or retention newly set) deleted them all in one, holding their rows the while.
     */
    int deleteBefore(Instant cutoff) {
        int deleted = 0;
        for (int n = DELETE_BATCH; n == DELETE_BATCH; ) {
            n = jdbc.tx("delete old conversations", c -> {
                List<String[]> old = new ArrayList<>();
                try (PreparedStatement ps = c.prepareStatement("SELECT tenant, id FROM conversations WHERE "
                        + "updated_at < ? LIMIT " + DELETE_BATCH)) {
                    ps.setObject(1, OffsetDateTime.ofInstant(cutoff, ZoneOffset.UTC));
                    try (ResultSet rs = ps.executeQuery()) {
                        while (rs.next()) {
                            old.add(new String[] {rs.getString(1), rs.getString(2)});
                        }
                    }
                }
                // Still old when deleted: one continued since it was listed keeps its new turn.
                try (PreparedStatement ps = c.prepareStatement("DELETE FROM conversations WHERE tenant = ? AND "
                        + "id = ? AND updated_at < ?")) {
                    for (String[] key : old) {
                        ps.setString(1, key[0]);
                        ps.setString(2, key[1]);
                        ps.setObject(3, OffsetDateTime.ofInstant(cutoff, ZoneOffset.UTC));
                        ps.addBatch();
                    }
                    if (!old.isEmpty()) {
                        ps.executeBatch();
                    }
                }
                return old.size();
            });
            deleted += n;
        }
        return deleted;
    }

    private static final int DELETE_BATCH = 1000;

    private static Conversation row(ResultSet rs, boolean messages) throws SQLException {
        return new Conversation(rs.getString("id"), rs.getString("title"), messages ? rs.getString("messages") : "",
                rs.getInt("turns"), JdbcCatalog.instant(rs, "created_at"), JdbcCatalog.instant(rs, "updated_at"));
    }

    @Override
    public Optional<ConversationStore.Conversation> conversation(String tenant, String id) {
        return get(tenant, id);
    }

    @Override
    public List<ConversationStore.Conversation> conversations(String tenant, int offset,
            int limit) {
        return list(tenant, offset, limit);
    }

    @Override
    public void changeConversation(String tenant, String id, Function<String, Written> change) {
        change(tenant, id, change);
    }

    @Override
    public boolean deleteConversation(String tenant, String id) {
        return delete(tenant, id);
    }

    @Override
    public int deleteConversationsBefore(Instant cutoff) {
        return deleteBefore(cutoff);
    }
}
