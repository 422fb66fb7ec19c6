package io.polyrag.cli;

import io.polyrag.core.model.SearchRequest;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.function.Function;
import picocli.CommandLine.Option;
import picocli.CommandLine.Parameters;

/** The query and retrieval options that {@code search} and {@code ask} share (a picocli mixin). */
final class RetrievalOptions {
    @Parameters(arity = "1..*", paramLabel = "QUERY", description = "The query (several words are joined).")
    List<String> words;

    @Option(names = {"-k", "--top-k"}, paramLabel = "N",
            description = "Hits to use (default: 10 for search, 8 for ask).")
    Integer topK;

    @Option(names = "--kb", paramLabel = "NAME", description = "Search only these knowledge bases; repeatable.")
    List<String> kbs;

    @Option(names = "--modalities", paramLabel = "LIST", description = "Retrievers to run, e.g. vector,fulltext.")
    List<String> modalities;

    @Option(names = "--fusion", paramLabel = "METHOD", description = "weighted or rrf.")
    String fusion;

    @Option(names = "--json", description = "Print one JSON object.")
    boolean json;

    @Option(names = "--api-key", paramLabel = "KEY", description = "When a running server holds the data directory "
            + "and has API keys: the key to ask it with.")
    String apiKey;

    @Option(names = "--no-server", description = "When a running server holds the data directory, fail as before "
            + "instead of asking it.")
    boolean noServer;

    /** The request as the REST API's body ({@code /v1/search}, {@code /v1/query}). */
    Map<String, Object> body() {
        Map<String, Object> b = new LinkedHashMap<>();
        b.put("query", String.join(" ", words));
        if (topK != null) {
            b.put("top_k", topK);
        }
        if (!PolyragCommand.split(kbs).isEmpty()) {
            b.put("kb", PolyragCommand.split(kbs));
        }
        if (!PolyragCommand.split(modalities).isEmpty()) {
            b.put("modalities", PolyragCommand.split(modalities));
        }
        if (fusion != null) {
            b.put("fusion", fusion);
        }
        return b;
    }

    /** The request, started by the facet ({@code search()::request} or {@code ::answerRequest}: its default top-k). */
    SearchRequest request(Function<String, SearchRequest.Builder> start) {
        return start.apply(String.join(" ", words)).topK(topK)
                .knowledgeBases(PolyragCommand.split(kbs)).modalityNames(PolyragCommand.split(modalities))
                .fusion(fusion).build();
    }
}
