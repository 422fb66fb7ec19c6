package io.polyrag.springai;

import io.polyrag.client.PolyragClient;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import org.springframework.ai.document.Document;
import org.springframework.ai.rag.Query;
import org.springframework.ai.rag.retrieval.search.DocumentRetriever;

/**
 * polyrag as a Spring AI {@link DocumentRetriever}: each query is one polyrag search (vector and full text fused, and
 * the graph arms where the server runs them) over the caller's knowledge bases; each fused hit is a
 * {@link Document} (id: the chunk's) with a score that falls with its rank (1 / rank: Spring AI's joiner sorts by
 * score, and a reranked hit keeps its fused score, so the rerank was undone) and the hit's metadata
 * ({@code document_id}, {@code title}, {@code chunk_id}, {@code uri}, {@code location}, {@code knowledge_base},
 * {@code fused_score}, {@code rank_<retriever>}: {@link PolyragClient.Hit#metadata()}, its score as fused_score).
 * A query longer than {@code maxQueryChars} (2,000, the server's default limit) is cut at a word boundary. Closing
 * it closes the client it made (not one given with {@code client}).
 *
 * <pre>{@code
 * var advisor = RetrievalAugmentationAdvisor.builder().documentRetriever(PolyragDocumentRetriever.builder()
 *         .baseUrl("http://127.0.0.1:8080").apiKey(key).knowledgeBases("handbook").topK(5).build()).build();
 * String answer = ChatClient.builder(chatModel).defaultAdvisors(advisor).build().prompt().user(question).call()
 *         .content();
 * }</pre>
 */
public final class PolyragDocumentRetriever implements DocumentRetriever, AutoCloseable {
    private final PolyragClient client;
    private final boolean owned;
    private final List<String> knowledgeBases;
    private final int topK;
    private final List<String> modalities;
    private final int maxQueryChars;

    private PolyragDocumentRetriever(Builder b) {
        this.owned = b.client == null;
        this.client = b.client != null ? b.client : PolyragClient.builder().baseUrl(b.baseUrl).apiKey(b.apiKey)
                .build();
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
                    + FILTER_EXPRESSION + "'): scope its searches with knowledgeBases(...), a retriever per scope "
                    + "sharing one PolyragClient (client(...))");
        }
        return documents(client.search(PolyragClient.Search.of(PolyragClient.Search.fitted(query.text(),
                maxQueryChars)).topK(topK).knowledgeBases(knowledgeBases).modalities(modalities)).requireAnswered()
                .hits());
    }

    /** The hits as documents, in their order, each scored 1 / its rank. */
    static List<Document> documents(List<PolyragClient.Hit> hits) {
        List<Document> out = new ArrayList<>(hits.size());
        for (PolyragClient.Hit h : hits) {
            Map<String, Object> meta = h.metadata();
            meta.put("fused_score", meta.remove("score"));
            out.add(Document.builder().id(h.chunkId()).text(h.text()).metadata(meta).score(1.0 / (out.size() + 1))
                    .build());
        }
        return out;
    }

    /** Where polyrag is and what to search. */
    public static final class Builder {
        private String baseUrl;
        private String apiKey;
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

        /** The longest query searched (default 2,000, the server's default limit): a longer message is cut. */
        public Builder maxQueryChars(int maxQueryChars) {
            if (maxQueryChars < 10) {
                throw new IllegalArgumentException("maxQueryChars must be at least 10, got " + maxQueryChars);
            }
            this.maxQueryChars = maxQueryChars;
            return this;
        }

        public PolyragDocumentRetriever build() {
            return new PolyragDocumentRetriever(this);
        }
    }
}
