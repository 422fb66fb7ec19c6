package io.polyrag.core.port;

import java.util.List;
import java.util.function.Consumer;

/**
 * A chat model behind one wire protocol.
 *
 * <p>Every call has a timeout; transient failures (429, 5xx, timeouts, resets) are retried a bounded number of times
 * and then raised as retryable errors; other failures are raised at once with the provider, status and message.
 * Safe for concurrent use.
 */
public interface LlmClient extends AutoCloseable {

    /** One message of a conversation. */
    record Message(String role, String content) {
    }

    /**
     * A completion request.
     *
     * @param system the system prompt: the rules the model follows
     * @param messages the conversation, oldest first
     * @param maxTokens the most tokens to generate
     * @param temperature sampling temperature
     * @param json whether the answer must be one JSON object
     */
    record Request(String system, List<Message> messages, int maxTokens, double temperature, boolean json) {
        public Request {
            messages = List.copyOf(messages);
        }
    }

    /**
     * A completion.
     *
     * @param text the generated text
     * @param model the model that answered
     * @param inputTokens tokens read, as the provider reports them
     * @param outputTokens tokens written
     * @param cut whether the model stopped at the request's {@code maxTokens} (OpenAI's finish_reason "length",
     *     Anthropic's stop_reason "max_tokens"), its text unfinished
     * @param stoppedBy the provider's own stop of the reply ({@code content_filter}, {@code refusal}), or null
     */
    record Response(String text, String model, int inputTokens, int outputTokens, boolean cut, String stoppedBy) {
        /** A completion that ended on its own. */
        public Response(String text, String model, int inputTokens, int outputTokens) {
            this(text, model, inputTokens, outputTokens, false, null);
        }

        public Response(String text, String model, int inputTokens, int outputTokens, boolean cut) {
            this(text, model, inputTokens, outputTokens, cut, null);
        }

        /**
         * The provider's reason for stopping the reply itself, its text perhaps unfinished: OpenAI's finish_reason
         * "content_filter", Anthropic's stop_reason "refusal"; null for any other end.
         */
        public static String stoppedBy(String reason) {
            return "content_filter".equals(reason) || "refusal".equals(reason) ? reason : null;
        }
    }

    /** The provider and model, e.g. {@code openai-compatible:gpt-4o-mini}. */
    String id();

    /**
     * Whether the provider enforces JSON output itself (a response-format switch), rather than only being asked to
     * in the prompt. Strategies that need strictly shaped output fall back when it does not.
     */
    default boolean strictJson() {
        return false;
    }

    Response complete(Request request);

    /**
     * The JSON object in a model's reply: from its first {@code {} to its last {@code }}, so prose or a code fence
     * around it does not matter; the reply itself when it holds no braces.
     */
    static String jsonObject(String reply) {
        String s = reply.strip();
        int start = s.indexOf('{');
        int end = s.lastIndexOf('}');
        return start >= 0 && end > start ? s.substring(start, end + 1) : s;
    }

    /** A reply without the Markdown code fence models wrap code in (```cypher … ```), stripped. */
    static String withoutCodeFence(String reply) {
        String s = reply.strip();
        if (s.startsWith("```")) {
            int nl = s.indexOf('\n');
            s = nl < 0 ? "" : s.substring(nl + 1);
            int end = s.lastIndexOf("```");
            s = end < 0 ? s : s.substring(0, end);
        }
        return s.strip();
    }

    /** Like {@link #complete}, passing each piece of text to {@code onToken} as it arrives. */
    Response stream(Request request, Consumer<String> onToken);

    @Override
    void close();
}
