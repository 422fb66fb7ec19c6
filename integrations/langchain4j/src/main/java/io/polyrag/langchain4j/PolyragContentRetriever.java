package io.polyrag.langchain4j;

import dev.langchain4j.data.document.Metadata;
import dev.langchain4j.data.segment.TextSegment;
import dev.langchain4j.rag.content.Content;
import dev.langchain4j.rag.content.ContentMetadata;
import dev.langchain4j.rag.content.retriever.ContentRetriever;
import dev.langchain4j.rag.query.Query;
import io.polyrag.client.PolyragClient;
import java.time.Duration;
import java.util.List;
import java.util.Map;

/**
 * polyrag as a LangChain4j {@link ContentRetriever}: each query is one polyrag search — vector and full text (and the
 * graph arms where the server runs them) fused, deduplicated, over the caller's knowledge bases — and each fused hit
 * is a {@link Content} whose segment carries where it came from: {@code document_id}, {@code chunk_id},
 * {@code title}, {@code uri}, {@code location}, {@code knowledge_base}, {@code score} and {@code rank_<retriever>}
 * for each retriever that found it ({@code rank_vector}, {@code rank_fulltext}, …); the fused score is also
 * {@link ContentMetadata#SCORE}. A query longer than {@code maxQueryChars} (2,000, the server's default limit) is cut
 * at a word boundary. Closing it closes the client it made (not one given with {@code client}).
 *
 * <pre>{@code
 * ContentRetriever retriever = PolyragContentRetriever.builder().baseUrl("http://127.0.0.1:8080").apiKey(key)
 *         .knowledgeBases("handbook").topK(5).build();
 * Assistant assistant = AiServices.builder(Assistant.class).chatModel(model).contentRetriever(retriever).build();
 * }</pre>
 */
public final class PolyragContentRetriever implements ContentRetriever, AutoCloseable {
    private final PolyragClient client;
    private final boolean owned;
    private final List<String> knowledgeBases;
    private final int topK;
    private final List<String> modalities;
    private final int maxQueryChars;

    private PolyragContentRetriever(Builder b) {
        this.owned = b.client == null;
        this.client = b.client != null ? b.client : PolyragClient.builder().baseUrl(b.baseUrl).apiKey(b.apiKey)
                .timeout(b.timeout).build();
        this.knowledgeBases = b.knowledgeBases;
        this.topK = b.topK;
        this.modalities = b.modalities;
        this.maxQueryChars = b.maxQueryChars;
    }

    /** Closes the client this retriever made; one given with {@code client} is the caller's to close. */
    @Override
    public void close() {
        if (owned) {
            client.close();
        }
    }

    public static Builder builder() {
        return new Builder();
    }

    @Override
    public List<Content> retrieve(Query query) {
        return client.search(PolyragClient.Search.of(PolyragClient.Search.fitted(query.text(), maxQueryChars))
                .topK(topK).knowledgeBases(knowledgeBases)
                .modalities(modalities)).requireAnswered().hits().stream().map(PolyragContentRetriever::content).toList();
    }

    private static Content content(PolyragClient.Hit h) {
        return Content.from(TextSegment.from(h.text(), Metadata.from(h.metadata())), Map.of(ContentMetadata.SCORE,
                h.score()));
    }

    /** Where polyrag is and what to search. */
    public static final class Builder {
        private String baseUrl;
        private String apiKey;
        private Duration timeout = Duration.ofSeconds(30);
        private PolyragClient client;
        private List<String> knowledgeBases = List.of();
        private int topK = 5;
        private List<String> modalities = List.of();
        private int maxQueryChars = 2000;

        public Builder baseUrl(String baseUrl) {
            this.baseUrl = baseUrl;
            return this;
        }

        public Builder apiKey(String apiKey) {
            this.apiKey = apiKey;
            return this;
        }

        public Builder timeout(Duration timeout) {
            this.timeout = timeout;
            return this;
        }

        /** A client already made (its base URL, key and timeouts); instead of baseUrl and apiKey. */
        public Builder client(PolyragClient client) {
            this.client = client;
            return this;
        }

        /** Only these knowledge bases (none: all of the key's). */
        public Builder knowledgeBases(String... names) {
            this.knowledgeBases = List.of(names);
            return this;
        }

        /** How many hits become contents (default 5). */
        public Builder topK(int topK) {
            if (topK < 1) {
                throw new IllegalArgumentException("topK must be at least 1, got " + topK);
            }
            this.topK = topK;
            return this;
        }

        /** Only these retrievers: vector, fulltext, graph, rdf (none: every one the server runs). */
        public Builder modalities(String... modalities) {
            this.modalities = List.of(modalities);
            return this;
        }

        /** The longest query searched (default 2,000, the server's default limit): a longer message is cut. */
        public Builder maxQueryChars(int maxQueryChars) {
            if (maxQueryChars < 10) {
                throw new IllegalArgumentException("maxQueryChars must be at least 10, got " + maxQueryChars);
            }
            this.maxQueryChars = maxQueryChars;
            return this;
        }

        public PolyragContentRetriever build() {
            return new PolyragContentRetriever(this);
        }
    }
}
