package io.polyrag.cli;

import io.polyrag.app.Json;
import io.polyrag.app.Polyrag;
import io.polyrag.app.api.JudgedQuery;
import java.io.IOException;
import java.io.PrintWriter;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Arrays;
import java.util.List;
import java.util.Map;
import java.util.concurrent.Callable;
import picocli.CommandLine.Command;
import picocli.CommandLine.Option;
import picocli.CommandLine.Parameters;
import picocli.CommandLine.ParentCommand;
import picocli.CommandLine.Spec;
import picocli.CommandLine;

/** {@code polyrag judgments add|list|clear KB}: a knowledge base's judged queries, what tuning learns from. */
@Command(name = "judgments", mixinStandardHelpOptions = true, description = {"A knowledge base's judged queries: a "
        + "query and the documents relevant to it, graded. 'polyrag tune KB' learns the knowledge base's fusion from "
        + "them and 'polyrag eval --kb KB' measures its search on them.",
    "Like POST/GET/DELETE /v1/knowledge-bases/{name}/judgments on a running server."},
        subcommands = {JudgmentsCommand.Add.class, JudgmentsCommand.ListJudgments.class, JudgmentsCommand.Clear.class})
final class JudgmentsCommand implements Callable<Integer> {
    @ParentCommand
    PolyragCommand parent;

    @Spec
    CommandLine.Model.CommandSpec spec;

    @Override
    public Integer call() {
        spec.commandLine().getErr().println("polyrag judgments: give a subcommand: add, list or clear");
        spec.commandLine().usage(spec.commandLine().getErr());
        return Main.USAGE;
    }

    /** {@code polyrag judgments add KB --file F | --qrels F --queries F}. */
    @Command(name = "add", mixinStandardHelpOptions = true, description = {"Add judged queries to KB: a JSON file "
        + "({\"judgments\": [{\"query_id\": \"q1\", \"query\": \"...\", \"relevant\": {\"DOCUMENT\": 1}}]}), or BEIR "
        + "files (qrels: query-id, corpus-id, score, tab-separated; queries: JSON lines with _id and text).",
        "Documents are named by id or by URI (a BEIR corpus id indexed by 'polyrag eval' by that id). A query id judged "
        + "before is replaced whole, as is one question judged before under another id."})
    static final class Add implements Callable<Integer> {
        @ParentCommand
        JudgmentsCommand judgments;

        @Spec
        CommandLine.Model.CommandSpec spec;

        @Parameters(paramLabel = "KB", description = "The knowledge base.")
        String kb;

        @Option(names = "--file", paramLabel = "FILE", description = "Judged queries as JSON.")
        Path file;

        @Option(names = "--qrels", paramLabel = "FILE", description = "BEIR qrels (with --queries).")
        Path qrels;

        @Option(names = "--queries", paramLabel = "FILE", description = "BEIR queries.jsonl (with --qrels).")
        Path queries;

        @Override
        public Integer call() throws IOException {
            // One or the other, whole: --file with --qrels was accepted and the qrels ignored.
            if (file != null ? qrels != null || queries != null : qrels == null || queries == null) {
                throw new CommandLine.ParameterException(spec.commandLine(), "give --file FILE (JSON), or "
                        + "--qrels FILE and --queries FILE (BEIR)");
            }
            for (Path given : Arrays.asList(file, qrels, queries)) {
                if (given != null && Files.isDirectory(given)) {
                    throw new CommandLine.ParameterException(spec.commandLine(), given + " is a folder: give a file");
                }
            }
            List<JudgedQuery> in;
            if (file != null) {
                in = Json.read(JudgedQuery.withoutBom(Files.readString(file, StandardCharsets.UTF_8)), Body.class)
                        .judgments();
            } else {
                try (var reader = Files.newBufferedReader(queries, StandardCharsets.UTF_8)) {
                    in = JudgedQuery.fromBeir(Files.readString(qrels, StandardCharsets.UTF_8), reader);
                }
            }
            try (Polyrag polyrag = judgments.parent.openIndexed(Map.of("ingest.workers", "0"))) {
                int added = polyrag.knowledgeBases().addJudgments(kb, in);
                spec.commandLine().getOut().printf("added %d judged quer%s to %s; it has %d%n", added,
                        added == 1 ? "y" : "ies", kb, polyrag.knowledgeBases().judgments(kb).size());
                return Main.OK;
            }
        }
    }

    /** The JSON file's shape, as the REST route takes it. */
    record Body(List<JudgedQuery> judgments) {
    }

    @Command(name = "list", mixinStandardHelpOptions = true, description = "List KB's judged queries (--json: as "
            + "GET /v1/knowledge-bases/{name}/judgments).")
    static final class ListJudgments implements Callable<Integer> {
        @ParentCommand
        JudgmentsCommand judgments;

        @Spec
        CommandLine.Model.CommandSpec spec;

        @Parameters(paramLabel = "KB", description = "The knowledge base.")
        String kb;

        @Option(names = "--json", description = "Print one JSON object.")
        boolean json;

        @Override
        public Integer call() {
            PrintWriter out = spec.commandLine().getOut();
            try (Polyrag polyrag = judgments.parent.openIndexed(Map.of("ingest.workers", "0"))) {
                List<JudgedQuery> list = polyrag.knowledgeBases().judgments(kb);
                if (json) {
                    out.println(Json.MAPPER.writeValueAsString(Map.of("knowledge_base", kb, "queries", list.size(),
                            "judgments", list)));
                    return Main.OK;
                }
                for (JudgedQuery j : list) {
                    out.printf("%s\t%s\t%s%n", j.queryId(), j.query(), j.relevant());
                }
                out.printf("%d judged quer%s%n", list.size(), list.size() == 1 ? "y" : "ies");
                return Main.OK;
            }
        }
    }

    @Command(name = "clear", mixinStandardHelpOptions = true, description = "Delete KB's judged queries, or one "
            + "(--query ID).")
    static final class Clear implements Callable<Integer> {
        @ParentCommand
        JudgmentsCommand judgments;

        @Spec
        CommandLine.Model.CommandSpec spec;

        @Parameters(paramLabel = "KB", description = "The knowledge base.")
        String kb;

        @Option(names = "--query", paramLabel = "ID", description = "Only this judged query.")
        String query;

        @Override
        public Integer call() {
            try (Polyrag polyrag = judgments.parent.openIndexed(Map.of("ingest.workers", "0"))) {
                int n = polyrag.knowledgeBases().deleteJudgments(kb, query);
                spec.commandLine().getOut().printf("deleted %d judged quer%s from %s%n", n, n == 1 ? "y" : "ies", kb);
                return Main.OK;
            }
        }
    }
}
