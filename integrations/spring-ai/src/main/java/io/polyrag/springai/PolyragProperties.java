package io.polyrag.springai;

import java.util.List;
import org.springframework.boot.context.properties.ConfigurationProperties;

/**
 * {@code polyrag.*}: where the server is and what to search.
 *
 * @param baseUrl the server, e.g. {@code http://127.0.0.1:8080} (required)
 * @param apiKey its API key (none in local mode)
 * @param knowledgeBases the knowledge bases to search (none: all of the key's)
 * @param topK hits per query (default 5)
 */
@ConfigurationProperties("polyrag")
public record PolyragProperties(String baseUrl, String apiKey, List<String> knowledgeBases, Integer topK) {
    public PolyragProperties {
        knowledgeBases = knowledgeBases == null ? List.of() : List.copyOf(knowledgeBases);
        topK = topK == null ? 5 : topK;
        if (topK < 1) {
            throw new IllegalArgumentException("polyrag.top-k must be at least 1, was " + topK
                    + ": the hits to retrieve per query");
        }
    }

    /** Without the key: properties end up in logs and actuator output. */
    @Override
    public String toString() {
        return "PolyragProperties[baseUrl=" + baseUrl + ", apiKey=" + (apiKey == null ? "none" : "(set)")
                + ", knowledgeBases=" + knowledgeBases + ", topK=" + topK + "]";
    }
}
