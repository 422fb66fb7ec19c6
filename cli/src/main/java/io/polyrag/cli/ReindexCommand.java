package io.polyrag.cli;

import io.polyrag.app.Polyrag;
import io.polyrag.core.model.JobInfo;
import io.polyrag.core.model.JobStatus;
import java.io.PrintWriter;
import java.util.concurrent.Callable;
import picocli.CommandLine.Command;
import picocli.CommandLine.Option;
import picocli.CommandLine.ParentCommand;
import picocli.CommandLine.Spec;
import picocli.CommandLine;

/** {@code polyrag reindex [--modality NAME]}: back-fill what a store lacks, as a job. */
@Command(name = "reindex", mixinStandardHelpOptions = true, description = {"Back-fill what a store lacks — after "
        + "switching it on, or changing the embedding model (its index starts empty), once documents were indexed — "
        + "from the catalog's chunk text, without reading the originals again (graph and RDF: entities extracted "
        + "from it).",
    "Runs as a background job of this process and waits for it; a running server takes the same job at POST "
        + "/v1/admin/reindex. Until a store is whole, searches skip its leg and say so (a new embedding model's: "
        + "the previous model serves its own index meanwhile).",
    "Exit code 0 when it finished, 1 when it failed or was stopped."})
final class ReindexCommand implements Callable<Integer> {
    @ParentCommand
    PolyragCommand parent;

    @Spec
    CommandLine.Model.CommandSpec spec;

    @Option(names = "--modality", paramLabel = "NAME", description = "vector, fulltext, graph or rdf (default: "
            + "every enabled store that lacks records).")
    String modality;

    @Option(names = "--all", description = "With --modality: rebuild that store from every document, not only where "
            + "records are missing: graph extracts the graph again from every chunk (after upgrading polyrag or "
            + "switching graph.extractor); vector and fulltext index every chunk's text again (after switching on "
            + "contextual retrieval, which writes the contexts; or to write what an index from an earlier release "
            + "lacks: fulltext the documents' whole texts, vector the whole vectors of documents cut into small "
            + "passages).")
    boolean all;

    @Override
    public Integer call() throws InterruptedException {
        PrintWriter out = spec.commandLine().getOut();
        try (Polyrag polyrag = parent.openToRunJobs()) {
            polyrag.admin().incomplete().forEach((m, why) -> out.println(m + ": " + why));
            String id = polyrag.admin().reindex(modality, all);
            String shown = "";
            while (true) {
                JobInfo j = polyrag.admin().job(id);
                String line = j.progress().stage() + ": " + j.progress().processed() + " of " + j.progress().total()
                        + " document versions";
                if (!line.equals(shown) && j.progress().total() > 0) {
                    out.println(line);
                    out.flush();
                    shown = line;
                }
                if (j.status().finished()) {
                    if (j.status() != JobStatus.SUCCEEDED) {
                        out.println("reindex " + j.status().wireName() + (j.error() == null ? "" : ": " + j.error()));
                        return Main.PARTIAL;
                    }
                    out.printf("reindexed %,d document versions; %s%n", j.progress().updated(),
                            polyrag.admin().incomplete().isEmpty() ? "every store is whole"
                                    : "still incomplete: " + polyrag.admin().incomplete().keySet());
                    return polyrag.admin().incomplete().isEmpty() ? Main.OK : Main.PARTIAL;
                }
                Thread.sleep(500);
            }
        }
    }
}
