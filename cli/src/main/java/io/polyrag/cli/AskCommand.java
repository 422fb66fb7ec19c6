package io.polyrag.cli;

import io.polyrag.app.DataDirInUseException;
import io.polyrag.app.Json;
import io.polyrag.app.Polyrag;
import io.polyrag.app.wire.SearchWire;
import io.polyrag.core.AnswerUnavailableException;
import io.polyrag.core.model.Answer;
import io.polyrag.core.model.AnswerSource;
import java.io.PrintWriter;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.concurrent.Callable;
import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Option;
import picocli.CommandLine.ParentCommand;
import picocli.CommandLine.Spec;
import picocli.CommandLine;
import tools.jackson.databind.JsonNode;

/** {@code polyrag ask QUESTION}: an answer with numbered sources. */
@Command(name = "ask", mixinStandardHelpOptions = true, description = "Answer a question from the indexed documents, citing numbered sources.")
final class AskCommand implements Callable<Integer> {
    @ParentCommand
    PolyragCommand parent;

    @Spec
    CommandLine.Model.CommandSpec spec;

    @Mixin
    RetrievalOptions query;

    @Option(names = "--neighbours", paramLabel = "N", description = "Chunks added around each hit (default 1).")
    Integer neighbours;

    @Option(names = "--grounding", description = "Report, per answer sentence, the sources that support it.")
    boolean grounding;

    @Option(names = "--route", negatable = true, description = "Decide first what the question asks for (lookup, "
            + "summary, comparison, list, small talk, out of scope) and answer accordingly; --no-route answers every "
            + "question as a lookup. Default: POLYRAG_ANSWER_ROUTER (off).")
    Boolean route;

    // style: a command: its options checked and its output written, top to bottom as the user reads them
    @Override
    public Integer call() {
        PrintWriter out = spec.commandLine().getOut();
        try (Polyrag polyrag = parent.openIndexed(Map.of("ingest.workers", "0"))) {
            Answer a;
            try {
                a = polyrag.search().answer(query.request(polyrag.search()::answerRequest), neighbours, grounding,
                        t -> { }, route);
            } catch (AnswerUnavailableException e) {
                // The model did not answer; the sources were found all the same: show them, then say why.
                if (query.json) {
                    out.println(Json.MAPPER.writeValueAsString(Map.of("error", e.getMessage(), "sources",
                            SearchWire.sources(e.sources()))));
                } else {
                    e.sources().forEach(s -> out.printf("[%d] %s  %s%n", s.number(), s.title(), s.uri()));
                }
                spec.commandLine().getErr().println("polyrag: no answer: " + e.getMessage()
                        + " (the sources above were found; check POLYRAG_LLM_BASE_URL and POLYRAG_LLM_MODEL, or set "
                        + "POLYRAG_LLM_PROVIDER=none for an "
                        + "extractive answer)");
                return Main.UNAVAILABLE;
            }
            if (query.json) {
                out.println(Json.MAPPER.writeValueAsString(SearchWire.of(a)));
                return Main.OK;
            }
            out.println(!a.answer().isEmpty() ? a.answer() : a.sources().isEmpty() ? "(nothing found)"
                    : "(no answer in the sources found)");
            out.println();
            out.println("(" + a.mode() + ") " + a.note());
            // A leg that did not answer leaves the answer to the others: said, as search says it.
            a.degraded().forEach(d -> out.println("warning: the " + d.modality() + " leg contributed nothing: "
                    + d.reason()));
            a.warnings().forEach(w -> out.println("warning: " + w));
            if (a.route() != null) {
                out.println("(routed as " + a.route().intent() + (a.route().scope() == null ? "" : ", "
                        + a.route().scope()) + ": " + a.route().reason() + "; decided " + a.route().by() + ")");
            }
            for (AnswerSource s : a.sources()) {
                out.printf("[%d] %s  %s%n", s.number(), s.title(), s.uri());
            }
            if (a.grounding() != null) {
                out.println();
                a.grounding().forEach(g -> out.printf("%s %s%n", g.supported() ? "supported by " + g.supportedBy()
                        : "UNSUPPORTED", g.sentence()));
            }
            return Main.OK;
        } catch (DataDirInUseException inUse) {
            if (query.noServer) {
                throw inUse;
            }
            ThroughServer server = ThroughServer.of(inUse, query.apiKey);
            server.say(spec.commandLine().getErr());
            Map<String, Object> body = new LinkedHashMap<>(query.body());
            if (neighbours != null) {
                body.put("neighbours", neighbours);
            }
            if (grounding) {
                body.put("grounding", true);
            }
            if (route != null) {
                body.put("route", route);
            }
            JsonNode r;
            try {
                r = server.post("/v1/query", body);
            } catch (ThroughServer.ModelFailed e) {
                // As when asked here: the sources found, then why there is no answer.
                if (query.json) {
                    out.println(Json.MAPPER.writeValueAsString(Map.of("error", e.getMessage(), "sources",
                            e.sources())));
                } else {
                    e.sources().forEach(src -> out.printf("[%d] %s  %s%n", src.path("number").asInt(),
                            src.path("title").asString(""), src.path("uri").asString("")));
                }
                out.flush();
                spec.commandLine().getErr().println("polyrag: no answer: " + e.getMessage() + " (the sources above "
                        + "were found)");
                return Main.UNAVAILABLE;
            }
            if (query.json) {
                out.println(Json.MAPPER.writeValueAsString(r));
            } else {
                ThroughServer.printAnswer(r, out);
            }
            return Main.OK;
        }
    }
}
