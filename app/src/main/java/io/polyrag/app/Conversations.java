package io.polyrag.app;

import com.fasterxml.jackson.annotation.JsonInclude;
import com.fasterxml.jackson.annotation.JsonProperty;
import io.polyrag.app.api.Limits;
import io.polyrag.core.InvalidInputException;
import io.polyrag.core.NotFoundException;
import io.polyrag.core.model.Ids;
import io.polyrag.core.model.Tenant;
import io.polyrag.core.port.ConversationStore;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Objects;
import java.util.regex.Pattern;
import java.util.stream.Stream;
import tools.jackson.core.JacksonException;
import tools.jackson.core.type.TypeReference;
import tools.jackson.databind.PropertyNamingStrategies;
import tools.jackson.databind.annotation.JsonNaming;

/**
 * A tenant's conversations kept on the server: the messages of each (the OpenAI shape), so the next question of a
 * conversation is retrieved with what the earlier ones named. Another tenant's id is not found, like one that never
 * existed. Kept {@code POLYRAG_CONVERSATIONS_RETENTION_DAYS} after their last message.
 */
public final class Conversations {
    /** A client-chosen id: what a URL path and a log line can carry. */
    private static final Pattern ID = Pattern.compile("[A-Za-z0-9][A-Za-z0-9_.-]{0,63}");
    /** Messages kept per conversation: the oldest go first beyond it. */
    static final int MAX_MESSAGES = 200;
    private static final int MAX_CONTENT = 20_000;
    /**
     * Characters kept per conversation: the oldest messages go first beyond it (200 messages of 20,000 characters,
     * which a new conversation's first request could send, were 4 MB a row).
     */
    static final int MAX_CHARACTERS = 200_000;

    private final ConversationStore store;
    private final Tenant tenant;

    Conversations(ConversationStore store, Tenant tenant) {
        this.store = store;
        this.tenant = tenant;
    }

    /**
     * One message: {@code role} user or assistant; a user message keeps the scope it was asked in (null: none), which
     * a later question sent without one is asked in too.
     */
    public record Message(String role, String content, @JsonInclude(JsonInclude.Include.NON_NULL) Scope scope) {
        public Message(String role, String content) {
            this(role, content, null);
        }
    }

    /** What a question was narrowed to: knowledge bases, a category, documents (each empty or null: not narrowed). */
    @JsonNaming(PropertyNamingStrategies.SnakeCaseStrategy.class)
    public record Scope(@JsonProperty("kb") List<String> knowledgeBases, String category,
            List<String> documentIds) {
        /**
         * The scope a request gave, or null when it gave none. An empty knowledge-base list given ({@code "kb": []})
         * is a scope: all of the caller's, which widens a conversation narrowed before; an absent one is none.
         */
        public static Scope of(List<String> knowledgeBases, String category, List<String> documentIds) {
            boolean none = knowledgeBases == null && (category == null
                    || category.isBlank()) && (documentIds == null || documentIds.isEmpty());
            // Blank names dropped as the search drops them: kept, a later question inheriting [""] was told the
            // conversation's knowledge base was deleted (404) on every turn after the first.
            return none ? null : new Scope(knowledgeBases == null ? List.of() : knowledgeBases.stream()
                    .filter(k -> k != null && !k.isBlank()).toList(), category,
                    documentIds == null ? List.of() : List.copyOf(documentIds));
        }
    }

    /** The scope of the conversation's latest question that had one, or null. */
    public Scope scope(String id) {
        return scope(messages(id));
    }

    /** The scope of the latest question of {@code kept} that had one, or null. */
    public static Scope scope(List<Message> kept) {
        for (int i = kept.size() - 1; i >= 0; i--) {
            if ("user".equals(kept.get(i).role()) && kept.get(i).scope() != null) {
                return kept.get(i).scope();
            }
        }
        return null;
    }

    /** A conversation: its messages, oldest first (empty in a list of conversations). */
    @JsonNaming(PropertyNamingStrategies.SnakeCaseStrategy.class)
    public record Conversation(String id, String title, int turns, Instant createdAt,
            Instant updatedAt, List<Message> messages) {
    }

    static String checked(String id) {
        if (id == null || !ID.matcher(id).matches()) {
            throw new InvalidInputException("conversation_id '" + Ids.abbreviate(String.valueOf(id), 70) + "' is "
                    + "invalid: use 1-64 characters of letters, digits, '_', '.' or '-', starting with a letter or "
                    + "digit");
        }
        return id;
    }

    /** The conversation's messages; empty when there is none with this id yet. */
    public List<Message> messages(String id) {
        return store.conversation(tenant.id(), checked(id)).map(c -> parse(c.messages())).orElse(List.of());
    }

    public Conversation get(String id) {
        ConversationStore.Conversation c = store.conversation(tenant.id(), checked(id)).orElseThrow(() ->
                notFound(id));
        return new Conversation(c.id(), c.title(), c.turns(), c.createdAt(), c.updatedAt(), parse(c.messages()));
    }

    public List<Conversation> list(int offset, int limit) {
        if (offset < 0 || limit < 1 || limit > Limits.MAX_PAGE) {
            throw new InvalidInputException("offset must be >= 0 and limit in [1, " + Limits.MAX_PAGE
                    + "], got " + offset + " and " + limit);
        }
        return store.conversations(tenant.id(), offset, limit).stream().map(c -> new Conversation(c.id(), c.title(),
                c.turns(), c.createdAt(), c.updatedAt(), List.of())).toList();
    }

    public void delete(String id) {
        if (!store.deleteConversation(tenant.id(), checked(id))) {
            throw notFound(id);
        }
    }

    /** Appends messages to the conversation (creating it), keeping the newest {@value #MAX_MESSAGES}. */
    public void append(String id, List<Message> added) {
        append(id, added, false);
    }

    /**
     * Appends messages to the conversation, keeping the newest {@value #MAX_MESSAGES} and at most
     * {@value #MAX_CHARACTERS} characters; with {@code resumed}, only while it still exists (one deleted while its
     * answer was written came back with that turn). Its title is its first question, set once. Whether it was
     * written.
     */
    public boolean append(String id, List<Message> added, boolean resumed) {
        boolean[] written = {false};
        store.changeConversation(tenant.id(), id, current -> {
            if (current == null && resumed) {
                return null;
            }
            List<Message> all = new ArrayList<>(parse(current));
            for (Message m : added) {
                String content = m.content() == null ? "" : m.content();
                all.add(new Message(m.role(), content.length() > MAX_CONTENT ? content.substring(0, MAX_CONTENT)
                        : content, m.scope()));
            }
            // A message's scope counts too: a question narrowed to a thousand documents keeps their ids, and each
            // follow-up keeps the scope it inherited.
            int chars = all.stream().mapToInt(Conversations::size).sum();
            while (all.size() > MAX_MESSAGES || chars > MAX_CHARACTERS && all.size() > 2) {
                chars -= size(all.removeFirst());
            }
            written[0] = true;
            int turns = (int) all.stream().filter(m -> "user".equals(m.role())).count();
            // Named once, by its first question: named by the oldest one kept, it changed at every turn once the
            // first were dropped.
            return new ConversationStore.Written(current == null ? title(all) : null,
                    Json.MAPPER.writeValueAsString(all), turns);
        });
        return written[0];
    }

    /** What a message adds to a conversation's record, near enough: its text and its scope's names. */
    private static int size(Message m) {
        Scope s = m.scope();
        return m.content().length() + (s == null ? 0 : Stream.of(s.knowledgeBases(), s.documentIds(),
                s.category() == null ? List.<String>of() : List.of(s.category())).filter(Objects::nonNull)
                .flatMap(List::stream).mapToInt(x -> x.length() + 3).sum());
    }

    private static String title(List<Message> all) {
        String first = all.stream().filter(m -> "user".equals(m.role())).map(Message::content).findFirst()
                .orElse("");
        // A column, not JSON: control characters out (PostgreSQL refuses a NUL, after the answer was paid for).
        String plain = first.codePoints().map(c -> Character.isISOControl(c) ? ' ' : c).collect(
                StringBuilder::new, StringBuilder::appendCodePoint, StringBuilder::append).toString();
        return plain.length() > 120 ? plain.substring(0, 117) + "..." : plain;
    }

    /**
     * A conversation's record, read leniently (a field a later release added, during a rolling upgrade or after a
     * rollback, made every turn and every read of it a 500); one that cannot be read at all is logged and empty.
     */
    private static List<Message> parse(String json) {
        if (json == null || json.isBlank()) {
            return List.of();
        }
        try {
            return Json.STORED.readValue(json, new TypeReference<List<Message>>() { });
        } catch (JacksonException e) {
            System.getLogger(Conversations.class.getName()).log(System.Logger.Level.WARNING, "a stored conversation "
                    + "cannot be read and is taken as empty: " + e.getOriginalMessage());
            return List.of();
        }
    }

    private static NotFoundException notFound(String id) {
        return new NotFoundException("no conversation '" + Ids.abbreviate(id, 70) + "': GET /v1/conversations "
                + "lists yours");
    }
}
