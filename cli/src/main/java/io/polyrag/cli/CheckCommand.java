package io.polyrag.cli;

import io.polyrag.app.Json;
import io.polyrag.app.Polyrag;
import io.polyrag.app.wire.AdminWire;
import io.polyrag.core.config.Settings;
import io.polyrag.core.model.CheckReport;
import java.io.PrintWriter;
import java.util.Map;
import java.util.concurrent.Callable;
import picocli.CommandLine.Command;
import picocli.CommandLine.Option;
import picocli.CommandLine.ParentCommand;
import picocli.CommandLine.Spec;
import picocli.CommandLine;

/** {@code polyrag check [--repair]}: compare every store with the catalog, and mend what differs. */
@Command(name = "check", mixinStandardHelpOptions = true, description = {"Compare every enabled store with the catalog: records per document version, "
        + "orphan records (of replaced, deleted or never-published versions) and records a store lacks.",
    "With --repair, remove the orphans and re-index what a store lacks from the catalog's chunk text (no re-parse).",
    "Exit code 0 when consistent (after a repair, if asked), 1 when differences remain."})
final class CheckCommand implements Callable<Integer> {
    @ParentCommand
    PolyragCommand parent;

    @Spec
    CommandLine.Model.CommandSpec spec;

    @Option(names = "--repair", description = "Remove orphan records and re-index what a store lacks.")
    boolean repair;

    @Option(names = "--json", description = "Print the report as JSON.")
    boolean json;

    @Override
    public Integer call() {
        PrintWriter out = spec.commandLine().getOut();
        // No job workers (nor, with them, the folder watcher): a check reports and mends the stores; it does not
        // take up queued jobs (after a crash the first command run is often this one) or join a shared catalog's
        // workers under this machine's configuration.
        try (Polyrag polyrag = parent.openIndexed(Map.of(Settings.INGEST_WORKERS.key(), "0"))) {
            CheckReport r = polyrag.admin().check(repair);
            if (json) {
                out.println(Json.MAPPER.writeValueAsString(AdminWire.of(r)));
            } else {
                print(r, out);
            }
            return r.consistent() ? Main.OK : Main.PARTIAL;
        }
    }

    private static void print(CheckReport r, PrintWriter out) {
        out.printf("catalog: %,d visible documents%n", r.documents());
        for (CheckReport.StoreCheck s : r.stores()) {
            String verdict = s.orphanVersions() == 0 && s.lackingVersions() == 0 ? "ok"
                    : s.consistent() ? "repaired" : "differs";
            out.printf("%-9s %-8s %,d records, catalog expects %,d", s.store() + ":", verdict, s.records(),
                    s.expectedRecords());
            if (s.orphanVersions() > 0) {
                out.printf("; %,d orphan records of %,d versions%s", s.orphanRecords(), s.orphanVersions(),
                        s.removedVersions() > 0 ? " (removed)" : "");
            }
            if (s.lackingVersions() > 0) {
                out.printf("; lacks %,d records of %,d versions%s", s.lackingRecords(), s.lackingVersions(),
                        s.reindexedVersions() > 0 ? " (" + s.reindexedVersions() + " re-indexed)" : "");
            }
            out.println();
            s.examples().forEach(e -> out.println("    " + e));
        }
        if (!r.consistent()) {
            out.println("run 'polyrag check --repair' to remove the orphans and re-index what the stores lack");
        }
    }
}
