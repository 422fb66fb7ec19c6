package io.polyrag.cli;

import io.polyrag.app.DataDirInUseException;
import io.polyrag.app.Json;
import io.polyrag.app.Polyrag;
import io.polyrag.app.api.PathIngest;
import io.polyrag.app.api.PathIngestReport;
import io.polyrag.app.api.SourceInfo;
import io.polyrag.app.api.SourceRegistration;
import io.polyrag.app.wire.IngestWire;
import io.polyrag.core.InvalidInputException;
import io.polyrag.core.UnavailableException;
import io.polyrag.core.config.Settings;
import io.polyrag.core.model.IngestEstimate;
import io.polyrag.core.model.IngestReport;
import io.polyrag.core.model.ItemError;
import io.polyrag.core.model.KnowledgeBase;
import java.io.PrintWriter;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.Callable;
import picocli.CommandLine.Command;
import picocli.CommandLine.Option;
import picocli.CommandLine.Parameters;
import picocli.CommandLine.ParentCommand;
import picocli.CommandLine.Spec;
import picocli.CommandLine;

/** {@code polyrag ingest PATH...}: index files and folders now. */
@Command(name = "ingest", mixinStandardHelpOptions = true, description = "Index files and directories into every enabled store.")
final class IngestCommand implements Callable<Integer> {
    @ParentCommand
    PolyragCommand parent;

    @Spec
    CommandLine.Model.CommandSpec spec;

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

    @Option(names = "--skip-graph", description = "Index without extracting entities and relations for the graph "
            + "and RDF stores.")
    boolean skipGraph;

    @Option(names = "--estimate", description = "Only estimate: read, parse and chunk, then print the documents, "
            + "chunks and the language-model calls and tokens entity extraction would spend. Indexes nothing (the data "
            + "directory is opened as for an ingest: created if missing, and not while a server holds it).")
    boolean estimate;

    @Option(names = "--sync", paramLabel = "ID", description = "Keep the one directory given in sync from now on: "
            + "register it as source ID; 'polyrag serve' then re-indexes what changes and removes what is deleted.")
    String syncId;

    @Override
    public Integer call() {
        PrintWriter out = spec.commandLine().getOut();
        PrintWriter err = spec.commandLine().getErr();
        if (estimate && syncId != null) {
            throw new InvalidInputException("--estimate and --sync: --estimate only says what an ingest would cost "
                    + "and keeps nothing in sync; give one");
        }
        // A folder given with --sync may be synced, beside any POLYRAG_SYNC_ALLOWED_ROOTS. It ingests on this
        // thread: no job workers, so no folder watcher either (with them it took up the jobs a server left queued).
        Map<String, String> more = new HashMap<>();
        more.put(Settings.INGEST_WORKERS.key(), "0");
        if (syncId != null && paths.size() == 1 && Files.isDirectory(paths.getFirst())) {
            String configured = parent.config(Map.of()).get(Settings.SYNC_ALLOWED_ROOTS);
            String dir = paths.getFirst().toAbsolutePath().normalize().toString();
            more.put(Settings.SYNC_ALLOWED_ROOTS.key(), configured.isBlank() ? dir : configured + "," + dir);
        }
        try (Polyrag polyrag = parent.open(more)) {
            PathIngest request = new PathIngest(paths, KnowledgeBase.of(kb), PolyragCommand.globs(includes),
                    PolyragCommand.globs(excludes), skipGraph);
            if (estimate) {
                return printEstimate(polyrag.ingest().estimate(request), out, err);
            }
            if (syncId != null && (paths.size() != 1 || !Files.isDirectory(paths.getFirst()))) {
                throw new InvalidInputException("--sync keeps one directory in sync: give exactly one directory");
            }
            SourceRegistration sync = null;
            Optional<SourceInfo> kept = Optional.empty();
            if (syncId != null) {
                Map<String, Object> config = new LinkedHashMap<>();
                config.put("root", paths.getFirst().toAbsolutePath().normalize().toString());
                config.put("include", PolyragCommand.globs(includes));
                config.put("exclude", PolyragCommand.globs(excludes));
                // The source's later syncs index as this ingest did: without the graph when it was asked so.
                config.put("skip_graph", skipGraph);
                sync = new SourceRegistration(syncId, "filesystem", config, kb, null, true);
                // Before the folder is read: an id in use for something else fails now, not after the ingest.
                kept = polyrag.sources().beforeIngest(sync);
            }
            Progress progress = Progress.forConsole(err);
            PathIngestReport r = polyrag.ingest().paths(request, progress);
            progress.finish();
            print(r, out, err);
            if (kept.isPresent()) {
                err.println("already keeping " + sync.config().get("root") + " in sync as source '" + syncId
                        + "'; 'polyrag serve' follows its changes");
            } else if (sync != null) {
                var source = polyrag.sources().registerIngested(sync);
                err.println("keeping " + sync.config().get("root") + " in sync as source '" + source.id() + "' ("
                        + source.items() + " files recorded); 'polyrag serve' follows its changes");
            }
            return r.report().failed() > 0 ? Main.PARTIAL : Main.OK;
        } catch (DataDirInUseException inUse) {
            // Indexing paths through the server would record them as uploads (upload:NAME, not file:///…): a
            // different document for the same file. Name the ways that keep them what they are.
            String url = ServedUrl.written(inUse.dataDir());
            if (url == null) {
                throw inUse;
            }
            throw new UnavailableException("the data directory is in use by the server at " + url
                    + ": ingest needs it to itself. Send the files to that server instead (curl -F files=@FILE "
                    + url + "/v1/ingest/files, or its web UI), keep a folder in sync through it (POST " + url
                    + "/v1/sync/sources, or restart it as 'polyrag serve --watch DIR'), or stop it and run this "
                    + "again");
        }
    }

    private int printEstimate(IngestEstimate e, PrintWriter out, PrintWriter err) {
        if (json) {
            out.println(Json.MAPPER.writeValueAsString(IngestWire.of(e)));
        } else {
            out.printf("%s, %s (%,d tokens)%n", PolyragCommand.plural((int) e.documents(), "document"),
                    PolyragCommand.plural((int) e.chunks(), "chunk"), e.chunkTokens());
            if (e.extractionCalls() == 0) {
                out.println("entity extraction: " + e.extractor() + ", no language-model calls");
            } else {
                out.printf("entity extraction: %s, %,d calls, about %,d input and %,d output tokens%n",
                        e.extractor(), e.extractionCalls(), e.extractionInputTokens(), e.extractionOutputTokens());
            }
            if (e.contextCalls() > 0) {
                out.printf("contextual retrieval: %,d calls, about %,d input and %,d output tokens%n",
                        e.contextCalls(), e.contextInputTokens(), e.contextOutputTokens());
            }
            for (ItemError x : e.errors()) {
                err.println("cannot read: " + x.source() + ": " + x.reason());
            }
        }
        return e.errors().isEmpty() ? Main.OK : Main.PARTIAL;
    }

    private void print(PathIngestReport pr, PrintWriter out, PrintWriter err) {
        IngestReport r = pr.report();
        if (json) {
            out.println(Json.MAPPER.writeValueAsString(Map.of("report", IngestWire.of(r), "skipped",
                    pr.skipped())));
            return;
        }
        out.printf(Locale.ROOT, "%s: %d added, %d updated, %d unchanged, %d failed; %s in %.1fs%n",
                PolyragCommand.plural(r.documents(), "document"), r.added(), r.updated(), r.unchanged(), r.failed(),
                PolyragCommand.plural(r.chunks(), "chunk"), r.tookMs() / 1000.0);
        if (r.relations() > 0 || r.extractionTokens() > 0) {
            out.printf("graph: %s extracted%s%n", PolyragCommand.plural(r.relations(), "relation"),
                    r.extractionTokens() > 0 ? String.format(", %,d model tokens spent", r.extractionTokens()) : "");
        }
        for (String w : r.warnings()) {
            err.println("warning: " + w);
        }
        if (pr.skipped() > 0) {
            out.println("skipped " + PolyragCommand.plural(pr.skipped(), "file") + " of other types "
                    + "(use --include to choose files)");
        }
        for (ItemError e : r.errors()) {
            err.println("failed: " + e.reason());
        }
    }
}
