package io.polyrag.springai;

import io.polyrag.client.PolyragClient;
import java.util.List;
import java.util.Map;
import org.springframework.ai.document.Document;
import org.springframework.ai.rag.Query;
import org.springframework.ai.rag.retrieval.search.DocumentRetriever;

/**
 * polyrag as a Spring AI {@link DocumentRetriever}: each query is one polyrag search (vector and full text fused, and
 * the graph arms where the server runs them) over the caller's knowledge bases; each fused hit is a
 * {@link Document} (id: the chunk's) with the fused score and the hit's metadata ({@code document_id}, {@code title},
 * {@code chunk_id}, {@code uri}, {@code location}, {@code knowledge_base}, {@code rank_<retriever>}: {@link
 * PolyragClient.Hit#metadata()}, less the score).
 *
 * <pre>{@code
 * var advisor = RetrievalAugmentationAdvisor.builder().documentRetriever(PolyragDocumentRetriever.builder()
 *         .baseUrl("http://127.0.0.1:8080").apiKey(key).knowledgeBases("handbook").topK(5).build()).build();
 * String answer = ChatClient.builder(chatModel).defaultAdvisors(advisor).build().prompt().user(question).call()
 *         .content();
 * }</pre>
 */
public final class PolyragDocumentRetriever implements DocumentRetriever {
    private final PolyragClient client;
    private final List<String> knowledgeBases;
    private final int topK;
    private final List<String> modalities;

    private PolyragDocumentRetriever(Builder b) {
        this.client = b.client != null ? b.client : PolyragClient.builder().baseUrl(b.baseUrl).apiKey(b.apiKey)
                .build();
        this.knowledgeBases = b.knowledgeBases;
        this.topK = b.topK;
        this.modalities = b.modalities;
    }

    public static Builder builder() {
        return new Builder();
    }

    /** Where Spring AI's advisors put a per-request filter (VectorStoreDocumentRetriever.FILTER_EXPRESSION). */
    static final String FILTER_EXPRESSION = "vector_store_filter_expression";

    /**
     * Searches {@code query}'s text. A per-request filter expression in its context (the advisor parameter a
     * {@code VectorStoreDocumentRetriever} applies) is refused, not ignored: ignored, a caller scoping each user's
     * searches so got every knowledge base the key can see. Scope with {@link Builder#knowledgeBases}.
     */
    @Override
    public List<Document> retrieve(Query query) {
        Object filter = query.context() == null ? null : query.context().get(FILTER_EXPRESSION);
        if (filter != null && !String.valueOf(filter).isBlank()) {
            throw new IllegalArgumentException("polyrag's retriever does not apply filter expressions ('"
                    + FILTER_EXPRESSION + "'): scope its searches with knowledgeBases(...), a retriever per scope");
        }
        return client.search(PolyragClient.Search.of(query.text()).topK(topK).knowledgeBases(knowledgeBases)
                .modalities(modalities)).requireAnswered().hits().stream().map(PolyragDocumentRetriever::document).toList();
    }

    private static Document document(PolyragClient.Hit h) {
        Map<String, Object> meta = h.metadata();
        meta.remove("score"); // a Document carries its score itself
        return Document.builder().id(h.chunkId()).text(h.text()).metadata(meta).score(h.score()).build();
    }

    /** Where polyrag is and what to search. */
    public static final class Builder {
        private String baseUrl;
        private String apiKey;
        private PolyragClient client;
        private List<String> knowledgeBases = List.of();
        private int topK = 5;
        private List<String> modalities = List.of();

        public Builder baseUrl(String baseUrl) {
            this.baseUrl = baseUrl;
            return this;
        }

        public Builder apiKey(String apiKey) {
            this.apiKey = apiKey;
            return this;
        }

        /** A client already made; instead of baseUrl and apiKey. */
        public Builder client(PolyragClient client) {
            this.client = client;
            return this;
        }

        public Builder knowledgeBases(String... names) {
            this.knowledgeBases = List.of(names);
            return this;
        }

        public Builder knowledgeBases(List<String> names) {
            this.knowledgeBases = List.copyOf(names);
            return this;
        }

        public Builder topK(int topK) {
            if (topK < 1) {
                throw new IllegalArgumentException("topK must be at least 1, got " + topK);
            }
            this.topK = topK;
            return this;
        }

        public Builder modalities(String... modalities) {
            this.modalities = List.of(modalities);
            return this;
        }

        public PolyragDocumentRetriever build() {
            return new PolyragDocumentRetriever(this);
        }
    }
}
