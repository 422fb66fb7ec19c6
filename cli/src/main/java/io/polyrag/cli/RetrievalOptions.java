package io.polyrag.cli;

import io.polyrag.core.model.FusionMethod;
import io.polyrag.core.model.Modality;
import io.polyrag.core.model.SearchRequest;
import java.util.List;
import java.util.Set;
import java.util.stream.Collectors;
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

    SearchRequest request(int defaultTopK) {
        Set<Modality> mods = PolyragCommand.split(modalities).stream().map(Modality::parse).collect(Collectors.toSet());
        return new SearchRequest(String.join(" ", words), topK == null ? defaultTopK : topK,
                PolyragCommand.split(kbs), mods, fusion == null ? null : FusionMethod.parse(fusion));
    }
}
