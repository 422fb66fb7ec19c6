package io.polyrag.model.llm;

import io.polyrag.core.ConfigException;
import io.polyrag.core.config.Config;
import io.polyrag.core.config.Setting;
import io.polyrag.core.config.Settings;
import io.polyrag.core.http.Outbound;
import io.polyrag.core.port.LlmClient;
import io.polyrag.core.port.Reranker;
import io.polyrag.core.spi.LlmProvider;
import io.polyrag.core.spi.ProviderContext;
import io.polyrag.core.spi.RerankerProvider;
import java.time.Duration;

/** The chat-model providers: {@code openai} (any OpenAI-compatible server) and {@code anthropic}. */
public final class LlmProviders {
    private LlmProviders() {
    }

    static Outbound transport(String provider, Config c) {
        return new Outbound(provider, Duration.ofSeconds(10), Duration.ofSeconds(c.get(Settings.LLM_TIMEOUT_SECONDS)),
                c.get(Settings.LLM_MAX_RETRIES), Thread::sleep);
    }

    static String required(Config c, Setting<String> s, String provider) {
        String v = c.get(s);
        if (v == null || v.isBlank()) {
            String chooser = s.key().startsWith("rerank") ? "POLYRAG_RERANK_PROVIDER" : "POLYRAG_LLM_PROVIDER";
            throw new ConfigException(s.env() + " is not set but " + chooser + "=" + provider + " needs it: set it, or "
                    + "set " + chooser + "=none");
        }
        return secret(s, v);
    }

    /**
     * A key or address as sent in a request's header or line: stripped (a secret file's or a CRLF env file's line
     * end, which the HTTP client refused with a message quoting the whole key, shown in search warnings), and refused
     * at start naming the setting, never its value, if a control character is left inside.
     */
    static String secret(Setting<String> s, String v) {
        if (v == null) {
            return null;
        }
        String stripped = v.strip();
        if (stripped.chars().anyMatch(Character::isISOControl)) {
            throw new ConfigException(s.env() + " holds a control character (a line break inside it?): set it to "
                    + "the value alone");
        }
        return stripped;
    }

    /** {@code POLYRAG_LLM_PROVIDER=openai}: OpenAI, OpenRouter, Ollama, vLLM, LM Studio. */
    public static final class OpenAi implements LlmProvider {
        @Override
        public String name() {
            return "openai";
        }

        @Override
        public String description() {
            return "OpenAI-compatible chat completions (OpenAI, OpenRouter, Ollama, vLLM, LM Studio)";
        }

        @Override
        public LlmClient open(ProviderContext context) {
            Config c = context.config();
            return new OpenAiCompatibleClient(required(c, Settings.LLM_BASE_URL, name()), secret(
                    Settings.LLM_API_KEY, c.get(Settings.LLM_API_KEY)),
                    required(c, Settings.LLM_MODEL, name()), transport("openai-compatible", c));
        }
    }

    /** {@code POLYRAG_LLM_PROVIDER=anthropic}: the Anthropic Messages API. */
    public static final class Anthropic implements LlmProvider {
        @Override
        public String name() {
            return "anthropic";
        }

        @Override
        public String description() {
            return "Anthropic Messages";
        }

        @Override
        public LlmClient open(ProviderContext context) {
            Config c = context.config();
            return new AnthropicClient(required(c, Settings.LLM_BASE_URL, name()),
                    required(c, Settings.LLM_API_KEY, name()), required(c, Settings.LLM_MODEL, name()),
                    transport("anthropic", c));
        }
    }

    /** {@code POLYRAG_RERANK_PROVIDER=http}: a rerank API in the tei or cohere wire format. */
    public static final class HttpRerank implements RerankerProvider {
        @Override
        public String name() {
            return "http";
        }

        @Override
        public String description() {
            return "rerank API over HTTP (text-embeddings-inference, Cohere, Jina)";
        }

        @Override
        public Reranker open(ProviderContext context) {
            Config c = context.config();
            return new HttpReranker(c.get(Settings.RERANK_FORMAT), required(c, Settings.RERANK_URL, "http"),
                    c.get(Settings.RERANK_MODEL), secret(Settings.RERANK_API_KEY, c.get(Settings.RERANK_API_KEY)),
                    transport("rerank", c));
        }
    }
}
