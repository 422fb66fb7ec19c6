package io.polyrag.model.llm;

import io.polyrag.core.http.Outbound;
import io.polyrag.core.http.OutboundException;
import io.polyrag.core.port.Reranker;
import java.net.URI;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import tools.jackson.databind.JsonNode;
import tools.jackson.databind.node.ObjectNode;

/**
 * A rerank API over HTTP, in one of two wire formats: {@code tei} (text-embeddings-inference: {@code POST /rerank}
 * with {@code query} and {@code texts}, answering {@code [{"index", "score"}]}) or {@code cohere} (Cohere and Jina:
 * {@code POST /v1/rerank} with {@code model}, {@code query}, {@code documents}, answering
 * {@code {"results": [{"index", "relevance_score"}]}}). A passage the API leaves out scores lowest.
 */
public final class HttpReranker implements Reranker {
    private final String format;
    private final URI endpoint;
    private final String model;
    private final String apiKey;
    private final Outbound http;

    HttpReranker(String format, String baseUrl, String model, String apiKey, Outbound http) {
        this.format = format;
        String base = baseUrl.replaceAll("/+$", "");
        this.endpoint = URI.create(format.equals("cohere") ? base + "/v1/rerank" : base + "/rerank");
        this.model = model;
        this.apiKey = apiKey;
        this.http = http;
    }

    @Override
    public String id() {
        return "http:" + format;
    }

    /** The most texts a request to text-embeddings-inference carries: its default --max-client-batch-size. */
    static final int TEI_BATCH = 32;

    private JsonNode request(String query, List<String> passages) {
        ObjectNode b = OpenAiCompatibleClient.JSON.createObjectNode();
        b.put("query", query);
        if (format.equals("cohere")) {
            if (model != null) {
                b.put("model", model);
            }
            passages.forEach(b.putArray("documents")::add);
            b.put("top_n", passages.size());
        } else {
            passages.forEach(b.putArray("texts")::add);
            b.put("truncate", true);
        }
        Map<String, String> headers = apiKey == null || apiKey.isBlank() ? Map.of()
                : Map.of("Authorization", "Bearer " + apiKey);
        return OpenAiCompatibleClient.JSON.readTree(http.postJson(endpoint, headers,
                OpenAiCompatibleClient.JSON.writeValueAsString(b), OpenAiCompatibleClient::error));
    }

    @Override
    public List<Double> score(String query, List<String> passages) {
        if (passages.isEmpty()) {
            return List.of();
        }
        Double[] scores = new Double[passages.size()];
        Arrays.fill(scores, Double.NEGATIVE_INFINITY);
        // text-embeddings-inference refuses more texts a request than its --max-client-batch-size (32 by default):
        // every search sending more candidates lost its reranking. A cross-encoder scores each pair on its own, so
        // scores of several requests compare.
        int batch = format.equals("cohere") ? passages.size() : TEI_BATCH;
        int scored = 0;
        // Sent at once, not one after another: each waited its own timeout, and a search's rerank of 100 candidates
        // took four of them (a TEI answering a batch in 8 s: 32 s, past the search's own time limit).
        List<Future<JsonNode>> replies = new ArrayList<>();
        try (ExecutorService sender = Executors.newVirtualThreadPerTaskExecutor()) {
            for (int from = 0; from < passages.size(); from += batch) {
                List<String> part = passages.subList(from, Math.min(passages.size(), from + batch));
                replies.add(sender.submit(() -> request(query, part)));
            }
        }
        for (int b = 0; b < replies.size(); b++) {
            int from = b * batch;
            List<String> part = passages.subList(from, Math.min(passages.size(), from + batch));
            JsonNode r;
            try {
                r = replies.get(b).get();
            } catch (ExecutionException e) {
                throw e.getCause() instanceof RuntimeException x ? x : new IllegalStateException(e.getCause());
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
                throw new OutboundException("rerank", 0, "interrupted", e);
            }
            for (JsonNode item : format.equals("cohere") ? r.path("results") : r) {
                int i = item.path("index").asInt(-1);
                if (i >= 0 && i < part.size()) {
                    scores[from + i] = item.path(format.equals("cohere") ? "relevance_score" : "score").asDouble();
                    scored++;
                }
            }
        }
        // A reply of another shape (Voyage's "data" under cohere, an object under tei) scored nothing: the fused
        // order came back as a rerank, with no warning.
        if (scored == 0) {
            throw new OutboundException("rerank", 200, "the reply held no scores for the " + passages.size() + " passages "
                    + "sent: is POLYRAG_RERANK_FORMAT (tei|cohere) right for this service?", null);
        }
        // Passages the service left out of its reply rank below every scored one, in their order: as -Infinity the
        // score reached the JSON as the string "-Infinity", where a number belongs.
        double floor = Arrays.stream(scores).filter(x -> x != Double.NEGATIVE_INFINITY && Double.isFinite(x))
                .mapToDouble(Double::doubleValue).min().orElse(0) - 1;
        for (int i = 0; i < scores.length; i++) {
            if (scores[i] == Double.NEGATIVE_INFINITY || !Double.isFinite(scores[i])) {
                scores[i] = floor - i * 1e-6;
            }
        }
        return new ArrayList<>(Arrays.asList(scores));
    }
}
