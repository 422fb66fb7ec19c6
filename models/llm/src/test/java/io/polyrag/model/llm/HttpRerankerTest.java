package io.polyrag.model.llm;

import io.polyrag.core.http.Outbound;
import io.polyrag.core.http.OutboundException;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.polyrag.model.llm.LoopbackServer.Reply;
import java.io.IOException;
import java.time.Duration;
import java.util.List;
import org.junit.jupiter.api.Test;
import tools.jackson.databind.JsonNode;

/** The rerank API client against a loopback server in both wire formats. */
class HttpRerankerTest {
    private static HttpReranker reranker(String format, LoopbackServer s) {
        return new HttpReranker(format, s.base().toString(), "rerank-test", "rk-key",
                new Outbound("rerank", Duration.ofSeconds(2), Duration.ofSeconds(5), 0, d -> { }));
    }

    @Test
    void tei_format_sends_texts_and_maps_scores_back_to_input_order() throws IOException {
        try (LoopbackServer s = new LoopbackServer(Reply.json(200,
                "[{\"index\":2,\"score\":0.91},{\"index\":0,\"score\":0.40}]"))) {
            List<Double> scores = reranker("tei", s).score("tides", List.of("a", "b", "c"));
            // "b", left out of the reply, ranks below both with a finite score (JSON has no -Infinity).
            assertThat(scores.get(0)).isEqualTo(0.40);
            assertThat(scores.get(2)).isEqualTo(0.91);
            assertThat(scores.get(1)).isFinite().isLessThan(0.40);
            LoopbackServer.Received got = s.received.getFirst();
            assertThat(got.path()).isEqualTo("/rerank");
            JsonNode body = OpenAiCompatibleClient.JSON.readTree(got.body());
            assertThat(body.path("query").asString()).isEqualTo("tides");
            assertThat(body.path("texts")).hasSize(3);
            assertThat(got.header("Authorization")).isEqualTo("Bearer rk-key");
        }
    }

    /**
     * Forty candidates go to text-embeddings-inference as requests of at most 32 texts (its default limit refused the
     * whole search's reranking), and each reply's indexes are read against its own part.
     */
    @Test
    void tei_gets_at_most_32_texts_a_request_and_the_scores_line_up() throws Exception {
        // Each request answered for its own texts ("tN" scores N; the second part only its first and last), as the
        // parts are sent at once and arrive in either order.
        java.util.List<Integer> sizes = new java.util.concurrent.CopyOnWriteArrayList<>();
        com.sun.net.httpserver.HttpServer tei = com.sun.net.httpserver.HttpServer.create(
                new java.net.InetSocketAddress("127.0.0.1", 0), 0);
        tei.createContext("/rerank", x -> {
            JsonNode texts = OpenAiCompatibleClient.JSON.readTree(x.getRequestBody().readAllBytes()).path("texts");
            sizes.add(texts.size());
            StringBuilder reply = new StringBuilder("[");
            for (int i = 0; i < texts.size(); i++) {
                int n = Integer.parseInt(texts.get(i).asString().substring(1));
                if (n < 32 || i == 0 || i == texts.size() - 1) {
                    reply.append(reply.length() > 1 ? "," : "").append("{\"index\":").append(i)
                            .append(",\"score\":").append(n < 32 ? n : n + 68).append("}");
                }
            }
            byte[] b = reply.append("]").toString().getBytes(java.nio.charset.StandardCharsets.UTF_8);
            x.getResponseHeaders().add("Content-Type", "application/json");
            x.sendResponseHeaders(200, b.length);
            x.getResponseBody().write(b);
            x.close();
        });
        tei.setExecutor(java.util.concurrent.Executors.newCachedThreadPool());
        tei.start();
        try {
            HttpReranker reranker = new HttpReranker("tei", "http://127.0.0.1:" + tei.getAddress().getPort(),
                    "rerank-test", "rk-key", new Outbound("rerank", Duration.ofSeconds(2), Duration.ofSeconds(5), 0,
                            d -> { }));
            List<String> texts = java.util.stream.IntStream.range(0, 40).mapToObj(i -> "t" + i).toList();
            List<Double> scores = reranker.score("tides", texts);
            assertThat(scores).hasSize(40);
            assertThat(scores.get(5)).isEqualTo(5.0);
            assertThat(scores.get(32)).isEqualTo(100.0);
            assertThat(scores.get(39)).isEqualTo(107.0);
            assertThat(scores.get(35)).isLessThan(0.0);
            assertThat(sizes).containsExactlyInAnyOrder(32, 8);
        } finally {
            tei.stop(0);
        }
    }

    @Test
    void cohere_format_sends_documents_with_the_model_and_reads_relevance_scores() throws IOException {
        try (LoopbackServer s = new LoopbackServer(Reply.json(200, """
                {"id":"r1","results":[{"index":1,"relevance_score":0.8},{"index":0,"relevance_score":0.1}],
                 "meta":{"billed_units":{"search_units":1}}}"""))) {
            assertThat(reranker("cohere", s).score("q", List.of("x", "y"))).containsExactly(0.1, 0.8);
            LoopbackServer.Received got = s.received.getFirst();
            assertThat(got.path()).isEqualTo("/v1/rerank");
            JsonNode body = OpenAiCompatibleClient.JSON.readTree(got.body());
            assertThat(body.path("model").asString()).isEqualTo("rerank-test");
            assertThat(body.path("documents")).hasSize(2);
            assertThat(body.path("top_n").asInt()).isEqualTo(2);
        }
    }

    /** A reply of another shape (Voyage's "data" under cohere) scored nothing: an error, not the fused order. */
    @Test
    void a_reply_that_scores_nothing_is_an_error() throws IOException {
        try (LoopbackServer s = new LoopbackServer(Reply.json(200, "{\"data\":[{\"index\":0,\"relevance_score\":1}]}"))) {
            assertThatThrownBy(() -> reranker("cohere", s).score("q", List.of("x", "y")))
                    .isInstanceOf(OutboundException.class).hasMessageContaining("held no scores for the 2 passages")
                    .hasMessageContaining("POLYRAG_RERANK_FORMAT");
        }
    }

    @Test
    void an_api_error_names_the_status_and_message() throws IOException {
        try (LoopbackServer s = new LoopbackServer(Reply.json(413, "{\"error\":\"batch size 300 > maximum 64\"}"))) {
            assertThatThrownBy(() -> reranker("tei", s).score("q", List.of("x"))).isInstanceOf(OutboundException.class)
                    .hasMessage("rerank answered HTTP 413: batch size 300 > maximum 64");
        }
    }
}
