package io.polyrag.cli;

import io.polyrag.app.Polyrag;
import io.polyrag.core.model.DegradedLeg;
import io.polyrag.core.model.FusionMethod;
import io.polyrag.core.model.Modality;
import io.polyrag.core.model.SearchHit;
import io.polyrag.core.model.SearchRequest;
import io.polyrag.core.model.SearchResponse;
import io.polyrag.server.Json;
import java.io.PrintWriter;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.Callable;
import java.util.stream.Collectors;
import picocli.CommandLine.Command;
import picocli.CommandLine.Option;
import picocli.CommandLine.Parameters;
import picocli.CommandLine.ParentCommand;
import picocli.CommandLine.Spec;

/** {@code polyrag search QUERY}: run every enabled retriever and print the fused hits. */
@Command(name = "search", description = "Search with every enabled retriever and fuse the rankings.")
final class SearchCommand implements Callable<Integer> {
    @ParentCommand
    PolyragCommand parent;

    @Spec
    picocli.CommandLine.Model.CommandSpec spec;

    @Parameters(arity = "1..*", paramLabel = "QUERY", description = "The query (several words are joined).")
    List<String> words;

    @Option(names = {"-k", "--top-k"}, paramLabel = "N", description = "Hits to return (default 10).")
    Integer topK;

    @Option(names = "--kb", paramLabel = "NAME", description = "Search only these knowledge bases; repeatable.")
    List<String> kbs;

    @Option(names = "--modalities", paramLabel = "LIST", description = "Retrievers to run, e.g. vector,fulltext.")
    List<String> modalities;

    @Option(names = "--fusion", paramLabel = "METHOD", description = "rrf or weighted.")
    String fusion;

    @Option(names = "--json", description = "Print one JSON object.")
    boolean json;

    @Override
    public Integer call() {
        PrintWriter out = spec.commandLine().getOut();
        try (Polyrag polyrag = parent.open(Map.of("ingest.workers", "0"))) {
            Set<Modality> mods = PolyragCommand.split(modalities).stream().map(Modality::parse)
                    .collect(Collectors.toSet());
            SearchResponse r = polyrag.search(new SearchRequest(String.join(" ", words),
                    topK == null ? polyrag.defaultTopK() : topK, PolyragCommand.split(kbs), mods,
                    fusion == null ? null : FusionMethod.parse(fusion)));
            if (json) {
                out.println(Json.MAPPER.writeValueAsString(r));
            } else {
                print(r, out);
            }
            return Main.OK;
        }
    }

    private static void print(SearchResponse r, PrintWriter out) {
        for (DegradedLeg d : r.degraded()) {
            out.println("warning: " + d.modality() + " returned nothing: " + d.reason());
        }
        if (r.hits().isEmpty()) {
            out.println("no hits (" + r.tookMs() + " ms)");
            return;
        }
        for (SearchHit h : r.hits()) {
            String where = h.headingPath().isEmpty() ? "" : "  §" + String.join(" › ", h.headingPath());
            String sources = h.sources().entrySet().stream().sorted(Map.Entry.comparingByKey())
                    .map(e -> e.getKey() + " #" + e.getValue().rank()).collect(Collectors.joining(", "));
            out.printf("%2d. %s%s%n    %s%n    score %.4f · %s%n    %s%n%n", h.rank(), h.title(), where, h.uri(),
                    h.score(), sources, snippet(h.text()));
        }
        out.println(r.hits().size() + " hits in " + r.tookMs() + " ms");
    }

    private static String snippet(String text) {
        String flat = text.replaceAll("\\s+", " ").strip();
        return flat.length() <= 240 ? flat : flat.substring(0, 237) + "...";
    }
}
