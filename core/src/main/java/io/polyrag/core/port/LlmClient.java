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
     */
    record Response(String text, String model, int inputTokens, int outputTokens) {
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

    /** Like {@link #complete}, passing each piece of text to {@code onToken} as it arrives. */
    Response stream(Request request, Consumer<String> onToken);

    @Override
    void close();
}
