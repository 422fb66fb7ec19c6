package io.polyrag.core.port;

import java.time.Instant;
import java.util.List;
import java.util.Optional;
import java.util.function.Function;

/** Conversations kept per tenant: their messages (JSON, the OpenAI shape), so a follow-up can lean on them. */
public interface ConversationStore {
    /**
     * A stored conversation.
     *
     * @param messages its messages as a JSON array of {@code {"role", "content"}}
     * @param turns how many user messages it holds
     */
    record Conversation(String id, String title, String messages, int turns, Instant createdAt, Instant updatedAt) {
    }

    Optional<Conversation> conversation(String tenant, String id);

    /** The tenant's conversations, most recently updated first (their messages left out: empty). */
    List<Conversation> conversations(String tenant, int offset, int limit);

    /**
     * What a change writes: the conversation's title (null: the one it has), its messages (JSON) and how many user
     * messages they hold.
     */
    record Written(String title, String messages, int turns) {
    }

    /** Conversations a tenant keeps: a new one beyond it deletes the least recently written. */
    int MAX_PER_TENANT = 10_000;

    /**
     * Creates or rewrites a conversation from its current messages ({@code null} when it has none yet), in one
     * transaction that holds its row meanwhile, so two changes at once both land (read and written apart, one of
     * two concurrent follow-ups was lost). A change answering null writes nothing. A new conversation beyond the
     * tenant's {@link #MAX_PER_TENANT} deletes its least recently written ones.
     */
    void changeConversation(String tenant, String id, Function<String, Written> change);

    /** False when the tenant has no conversation with that id. */
    boolean deleteConversation(String tenant, String id);

    /** Deletes every tenant's conversations last updated before {@code cutoff}; how many went. */
    int deleteConversationsBefore(Instant cutoff);
}
