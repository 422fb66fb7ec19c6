package io.polyrag.core.http;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.catchThrowable;

import java.net.ServerSocket;
import java.net.URI;
import java.time.Duration;
import java.util.Map;
import org.junit.jupiter.api.Test;

/** What a tenant is shown of a model call's failure: who failed and how, never the operator's address. */
class OutboundShownTest {
    @Test
    void a_failure_shown_to_a_tenant_names_the_provider_not_its_address() throws Exception {
        int port;
        try (ServerSocket s = new ServerSocket(0)) {
            port = s.getLocalPort();
        }
        Outbound rerank = new Outbound("rerank", Duration.ofSeconds(1), Duration.ofSeconds(1), 0, d -> { });
        Throwable t = catchThrowable(() -> rerank.postJson(URI.create("http://127.0.0.1:" + port + "/rerank"),
                Map.of(), "{}", body -> body));
        assertThat(t).isInstanceOf(OutboundException.class).hasMessageContaining("127.0.0.1:" + port);
        RuntimeException wrapped = new RuntimeException("scoring failed", t);
        assertThat(OutboundException.shown(wrapped)).isEqualTo("rerank could not be reached")
                .doesNotContain("127.0.0.1");
        assertThat(OutboundException.shown(new IllegalStateException("plain"))).isEqualTo("plain");
        // A provider's refusal says what to fix: shown whole; a timeout is said as one, not as unreachable.
        assertThat(new OutboundException("openai", 401, "Incorrect API key provided", null).shown())
                .isEqualTo("openai answered HTTP 401: Incorrect API key provided");
        assertThat(new OutboundException.Transient("openai", 0, "timed out after 60 s", null).shown())
                .isEqualTo("openai timed out");
        assertThat(new OutboundException("openai", 200, "the body of http://10.0.3.7/v1 broke off", null).shown())
                .isEqualTo("openai answered HTTP 200: the body of (an address) broke off");
        // OpenAI's own 401 names its key page; a gateway's 502 names the host behind it.
        assertThat(new OutboundException("openai", 401, "Incorrect API key provided: sk-****abcd. You can find your "
                + "API key at https://platform.openai.com/account/api-keys.", null).shown())
                .contains("Incorrect API key provided").doesNotContain("platform.openai.com");
        assertThat(new OutboundException("openai", 502, "Cannot connect to host ollama.internal:11434 [('10.0.3.7', "
                + "11434)]", null).shown()).isEqualTo("openai answered HTTP 502");
    }
}
