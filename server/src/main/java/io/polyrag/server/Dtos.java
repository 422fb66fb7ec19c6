package io.polyrag.server;

import com.fasterxml.jackson.annotation.JsonFormat;
import com.fasterxml.jackson.annotation.JsonIgnoreProperties;
import com.fasterxml.jackson.annotation.JsonProperty;
import com.fasterxml.jackson.annotation.JsonSetter;
import com.fasterxml.jackson.annotation.Nulls;
import io.polyrag.app.wire.SearchWire;
import java.util.List;
import java.util.Map;
import tools.jackson.databind.JsonNode;

/**
 * Request bodies of the REST API, with the documented (snake_case) names as their only JSON names: an unknown field,
 * including a Java component name such as {@code topK}, is rejected with the list of the documented ones.
 */
final class Dtos {
    private Dtos() {
    }

    /**
     * {@code POST /v1/search}.
     *
     * @param query the text to search for
     * @param topK hits wanted ({@code top_k}); default from the server's configuration
     * @param knowledgeBases knowledge bases to search ({@code kb}; one name or a list); empty: all
     * @param modalities retrievers to run; empty: all enabled
     * @param fusion {@code rrf} or {@code weighted}; default from configuration
     * @param explain add each hit's per-modality contributions and the fusion arithmetic
     * @param category only hits of documents with this category
     * @param documentIds only hits of these documents ({@code document_ids})
     * @param rrfK this search's RRF k ({@code rrf_k}, 1-10000); default from configuration
     * @param weights this search's weighted-fusion weights by modality, each 0-1000; unnamed ones keep theirs
     * @param rerank false skips the configured reranker; default: rerank when one is configured
     * @param candidates each leg's depth for this search (1-1000); default {@code search.candidates}
     * @param fulltextDocumentWeight the full-text leg's blend of each passage with its whole document for this
     *     search ({@code fulltext_document_weight}, 0-1); default {@code fulltext.document.weight}
     * @param vectorDocumentWeight the vector leg's blend of each passage with its document's whole vector, where it
     *     has one, for this search ({@code vector_document_weight}, 0-1); default {@code vector.document.weight}
     */
    record SearchBody(String query, @JsonProperty("top_k") Integer topK,
            @JsonProperty("kb") @JsonFormat(with = JsonFormat.Feature.ACCEPT_SINGLE_VALUE_AS_ARRAY) @JsonSetter(contentNulls = Nulls.FAIL) List<String> knowledgeBases,
            @JsonSetter(contentNulls = Nulls.FAIL) List<String> modalities,
            String fusion, Boolean explain, String category, @JsonProperty("document_ids") @JsonSetter(contentNulls = Nulls.FAIL) List<String> documentIds,
            @JsonProperty("rrf_k") Integer rrfK, Map<String, Double> weights, Boolean rerank, Integer candidates,
            @JsonProperty("fulltext_document_weight") Double fulltextDocumentWeight,
            @JsonProperty("vector_document_weight") Double vectorDocumentWeight) {
    }

    /**
     * {@code POST /v1/query}: a search plus an answer.
     *
     * @param query the question
     * @param topK hits to draw sources from ({@code top_k})
     * @param knowledgeBases knowledge bases to search ({@code kb}; one name or a list)
     * @param modalities retrievers to run
     * @param fusion rrf or weighted
     * @param neighbours chunks added around each hit, 0 to 5
     * @param stream answer as server-sent events: {@code token} events as the text is written, then
     *     {@code answer} with the whole answer and its sources
     * @param grounding add the grounding report: per answer sentence, the sources that support it
     * @param category only sources from documents with this category
     * @param documentIds only sources from these documents ({@code document_ids})
     * @param rrfK RRF k ({@code rrf_k}), as for search
     * @param weights weighted-fusion weights by modality, as for search
     * @param rerank false skips the configured reranker, as for search
     * @param route decide first what the question asks for and answer accordingly (the intent router); null for
     *     {@code answer.router}
     * @param candidates each leg's depth, as for search
     * @param fulltextDocumentWeight the full-text leg's blend ({@code fulltext_document_weight}), as for search
     * @param vectorDocumentWeight the vector leg's blend ({@code vector_document_weight}), as for search
     */
    record QueryBody(String query, @JsonProperty("top_k") Integer topK,
            @JsonProperty("kb") @JsonFormat(with = JsonFormat.Feature.ACCEPT_SINGLE_VALUE_AS_ARRAY) @JsonSetter(contentNulls = Nulls.FAIL) List<String> knowledgeBases,
            @JsonSetter(contentNulls = Nulls.FAIL) List<String> modalities,
            String fusion, Integer neighbours, Boolean stream, Boolean grounding, String category,
            @JsonProperty("document_ids") @JsonSetter(contentNulls = Nulls.FAIL) List<String> documentIds, @JsonProperty("rrf_k") Integer rrfK,
            Map<String, Double> weights, Boolean rerank, List<QueryMessage> messages,
            @JsonProperty("conversation_id") String conversationId, Boolean route, Integer candidates,
            @JsonProperty("fulltext_document_weight") Double fulltextDocumentWeight,
            @JsonProperty("vector_document_weight") Double vectorDocumentWeight) {
    }

    /**
     * A message of {@code messages}, in the OpenAI shape: {@code content} a string or a list of parts (the text ones
     * read), null for an assistant turn that called tools; other fields ({@code name}, {@code tool_calls}) accepted
     * and ignored.
     */
    @JsonIgnoreProperties(ignoreUnknown = true)
    record QueryMessage(String role, JsonNode content) {
        /** The text: the string, or the text parts joined by new lines; empty when there is none. */
        String text() {
            if (content != null && content.isString()) {
                return content.asString();
            }
            StringBuilder sb = new StringBuilder();
            if (content != null && content.isArray()) {
                for (JsonNode part : content) {
                    if ("text".equals(part.path("type").asString("")) && part.path("text").isString()) {
                        sb.append(sb.isEmpty() ? "" : "\n").append(part.get("text").asString());
                    }
                }
            }
            return sb.toString();
        }
    }

    /** A 502: the model failed, the sources are still returned. */
    record AnswerProblem(String type, String title, int status, String detail,
            List<SearchWire.Source> sources) {
    }

    /**
     * {@code POST /v1/ingest/text}.
     *
     * @param text the content
     * @param title its title
     * @param uri its identity; default derived from the content
     * @param format text, markdown or html
     * @param knowledgeBase target knowledge base ({@code kb})
     * @param skipGraph index without entity extraction ({@code skip_graph})
     */
    record TextBody(String text, String title, String uri, String format,
            @JsonProperty("kb") String knowledgeBase,
            @JsonProperty("skip_graph") Boolean skipGraph) {
    }

    /**
     * An ingest of staged uploads.
     *
     * @param ids the ids the upload endpoint accepted
     * @param knowledgeBase target knowledge base ({@code kb}); default: the one they were staged for (a 400 when they
     *        were staged for different ones)
     * @param skipGraph index without entity extraction ({@code skip_graph})
     * @param figures auto, force or skip: which figures to take from PDFs and Office files; default the server's
     */
    record StagedBody(List<String> ids, @JsonProperty("kb") String knowledgeBase,
            @JsonProperty("skip_graph") Boolean skipGraph, String figures) {
    }

    /**
     * {@code POST /v1/sync/sources} and {@code PUT /v1/sync/sources/{id}}.
     *
     * @param id the caller's id for it ({@code source_id})
     * @param type {@code filesystem}
     * @param config {@code root}, {@code include}, {@code exclude}, {@code follow_symlinks}
     * @param knowledgeBase where its items are indexed ({@code kb})
     * @param intervalSeconds how often it is scanned, at least 30 ({@code interval_seconds})
     * @param enabled whether it is scanned and watched
     */
    record SourceBody(@JsonProperty("source_id") String id, String type, Map<String, Object> config, @JsonProperty("kb") String knowledgeBase,
            @JsonProperty("interval_seconds") Integer intervalSeconds, Boolean enabled) {
    }
}
