package io.polyrag.cli;

import io.polyrag.app.Polyrag;
import io.polyrag.app.Requests;
import io.polyrag.core.model.IngestReport;
import io.polyrag.core.model.ItemError;
import io.polyrag.server.Json;
import java.io.PrintWriter;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import java.util.concurrent.Callable;
import picocli.CommandLine.Command;
import picocli.CommandLine.Option;
import picocli.CommandLine.Parameters;
import picocli.CommandLine.ParentCommand;
import picocli.CommandLine.Spec;

/** {@code polyrag ingest PATH...}: index files and folders now. */
@Command(name = "ingest", description = "Index files and directories into every enabled store.")
final class IngestCommand implements Callable<Integer> {
    @ParentCommand
    PolyragCommand parent;

    @Spec
    picocli.CommandLine.Model.CommandSpec spec;

    @Parameters(arity = "1..*", paramLabel = "PATH", description = "Files and directories (walked recursively).")
    List<Path> paths;

    @Option(names = "--kb", paramLabel = "NAME", description = "Knowledge base (default: default).")
    String kb;

    @Option(names = "--include", paramLabel = "GLOB",
            description = "Only files matching (name glob, or path glob with '/'); repeatable.")
    List<String> includes;

    @Option(names = "--exclude", paramLabel = "GLOB", description = "Leave out matching files; repeatable.")
    List<String> excludes;

    @Option(names = "--json", description = "Print the report as JSON.")
    boolean json;

    @Override
    public Integer call() {
        PrintWriter out = spec.commandLine().getOut();
        PrintWriter err = spec.commandLine().getErr();
        try (Polyrag polyrag = parent.open(Map.of())) {
            Progress progress = Progress.forConsole(err);
            Polyrag.PathIngestReport r = polyrag.ingestPaths(new Requests.PathIngest(paths, kb,
                    PolyragCommand.split(includes), PolyragCommand.split(excludes)), progress);
            progress.finish();
            print(r, out, err);
            return r.report().failed() > 0 ? Main.PARTIAL : Main.OK;
        }
    }

    private void print(Polyrag.PathIngestReport pr, PrintWriter out, PrintWriter err) {
        IngestReport r = pr.report();
        if (json) {
            out.println(Json.MAPPER.writeValueAsString(Map.of("report", r, "skipped", pr.skipped())));
            return;
        }
        out.printf("%s: %d added, %d updated, %d unchanged, %d failed; %s in %.1fs%n",
                PolyragCommand.plural(r.documents(), "document"), r.added(), r.updated(), r.unchanged(), r.failed(),
                PolyragCommand.plural(r.chunks(), "chunk"), r.tookMs() / 1000.0);
        if (pr.skipped() > 0) {
            out.println("skipped " + PolyragCommand.plural(pr.skipped(), "file") + " of other types "
                    + "(use --include to choose files)");
        }
        for (ItemError e : r.errors()) {
            err.println("failed: " + e.reason());
        }
    }
}
