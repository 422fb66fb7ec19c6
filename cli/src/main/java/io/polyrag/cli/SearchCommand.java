package io.polyrag.cli;

import io.polyrag.app.DataDirInUseException;
import io.polyrag.app.Json;
import io.polyrag.app.Polyrag;
import io.polyrag.app.wire.SearchWire;
import io.polyrag.core.model.DegradedLeg;
import io.polyrag.core.model.SearchHit;
import io.polyrag.core.model.SearchResponse;
import java.io.PrintWriter;
import java.util.Locale;
import java.util.Map;
import java.util.concurrent.Callable;
import java.util.stream.Collectors;
import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.ParentCommand;
import picocli.CommandLine.Spec;
import picocli.CommandLine;
import tools.jackson.databind.JsonNode;

/** {@code polyrag search QUERY}: run every enabled retriever and print the fused hits. */
@Command(name = "search", mixinStandardHelpOptions = true, description = "Search with every enabled retriever and fuse the rankings.")
final class SearchCommand implements Callable<Integer> {
    @ParentCommand
    PolyragCommand parent;

    @Spec
    CommandLine.Model.CommandSpec spec;

    @Mixin
    RetrievalOptions query;

    @CommandLine.Option(names = "--explain", description = "Also say how the rankings were fused and what "
            + "each leg found and why (the graph legs: the entities named, the relations asked about, the paths).")
    boolean explain;

    @Override
    public Integer call() {
        PrintWriter out = spec.commandLine().getOut();
        try (Polyrag polyrag = parent.openIndexed(Map.of("ingest.workers", "0"))) {
            SearchResponse r = polyrag.search().run(query.request(polyrag.search()::request));
            if (query.json) {
                out.println(Json.MAPPER.writeValueAsString(SearchWire.of(r, explain)));
            } else {
                print(r, out);
                if (explain) {
                    out.println("fusion: " + r.fusion());
                }
            }
            return Main.OK;
        } catch (DataDirInUseException inUse) {
            if (query.noServer) {
                throw inUse;
            }
            ThroughServer server = ThroughServer.of(inUse, query.apiKey);
            server.say(spec.commandLine().getErr());
            Map<String, Object> body = query.body();
            body.put("explain", explain);
            JsonNode r = server.post("/v1/search", body);
            if (query.json) {
                out.println(Json.MAPPER.writeValueAsString(r));
            } else {
                ThroughServer.printSearch(r, out);
                if (explain) {
                    out.println("fusion: " + r.path("fusion").asString());
                }
            }
            return Main.OK;
        }
    }

    private static void print(SearchResponse r, PrintWriter out) {
        for (DegradedLeg d : r.degraded()) {
            out.println("warning: the " + d.modality() + " leg contributed nothing: " + d.reason());
        }
        // As the same command through a server prints them: an index still served by the previous embedding model
        // after a model change, documents still being indexed, a large category filtered late.
        r.warnings().forEach(w -> out.println("warning: " + w));
        if (r.hits().isEmpty()) {
            out.println("no hits (" + r.tookMs() + " ms)");
            return;
        }
        for (SearchHit h : r.hits()) {
            String where = (h.headingPath().isEmpty() ? "" : "  §" + String.join(" › ", h.headingPath()))
                    + (h.location().isEmpty() ? "" : "  (" + h.location() + ")");
            String sources = h.sources().entrySet().stream().sorted(Map.Entry.comparingByKey())
                    .map(e -> e.getKey() + " #" + e.getValue().rank()).collect(Collectors.joining(", "));
            out.printf(Locale.ROOT, "%2d. %s%s%n    %s%n    score %.4f · %s%n    %s%n", h.rank(), h.title(), where, h.uri(),
                    h.score(), sources, snippet(h.text()));
            for (var f : h.figures()) {
                out.println("    figure " + f.number() + (f.location().isEmpty() ? "" : " (" + f.location() + ")") + ": "
                        + (f.caption().isEmpty() ? "no caption" : snippet(f.caption())) + "  /v1/documents/"
                        + f.documentId() + "/figures/" + f.number());
            }
            out.println();
        }
        out.println(r.hits().size() + " hits in " + r.tookMs() + " ms");
    }

    private static String snippet(String text) {
        String flat = text.replaceAll("\\s+", " ").strip();
        return flat.length() <= 240 ? flat : flat.substring(0, 237) + "...";
    }
}
