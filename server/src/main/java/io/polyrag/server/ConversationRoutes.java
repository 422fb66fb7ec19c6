package io.polyrag.server;

import static io.polyrag.server.Http.intParam;

import io.javalin.http.Context;
import io.javalin.http.HttpStatus;
import io.polyrag.app.Conversations;
import io.polyrag.app.Polyrag;
import io.polyrag.app.api.Limits;
import java.util.List;

/**
 * {@code /v1/conversations}: the conversations kept for the caller ({@code POST /v1/query} with
 * {@code conversation_id}): list, read, delete.
 */
final class ConversationRoutes {
    private final Polyrag polyrag;

    /** {@code GET /v1/conversations}: newest first, without their messages. */
    record ConversationList(List<Conversations.Conversation> conversations, int offset, int limit) {
    }

    ConversationRoutes(Polyrag polyrag) {
        this.polyrag = polyrag;
    }

    private Conversations conversations(Context ctx) {
        return polyrag.as(Auth.tenant(ctx)).conversations();
    }

    void register(Api api) {
        api.get("/v1/conversations", ctx -> {
            Integer offset = intParam(ctx, "offset");
            Integer limit = intParam(ctx, "limit");
            int o = offset == null ? 0 : offset;
            int l = limit == null ? Limits.DEFAULT_DOCUMENTS_PAGE : limit;
            ctx.json(new ConversationList(conversations(ctx).list(o, l), o, l));
        }).summary("conversations", "Your conversations, most recent first (their messages left out)")
                .query("offset", "integer", "conversations to skip").query("limit", "integer", "page size, 1-1000")
                .response(200, "a page of conversations", ConversationList.class);
        api.get("/v1/conversations/{id}", ctx -> ctx.json(conversations(ctx).get(ctx.pathParam("id"))))
                .summary("conversations", "A conversation with its messages").path("id", "its id")
                .response(200, "the conversation", Conversations.Conversation.class);
        api.delete("/v1/conversations/{id}", ctx -> {
            conversations(ctx).delete(ctx.pathParam("id"));
            ctx.status(HttpStatus.NO_CONTENT);
        }).summary("conversations", "Delete a conversation").path("id", "its id").response(204, "deleted", null);
    }
}
