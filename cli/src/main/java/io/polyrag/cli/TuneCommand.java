package io.polyrag.cli;

import io.polyrag.app.Json;
import io.polyrag.app.Polyrag;
import io.polyrag.app.api.FusionTuning;
import io.polyrag.core.InvalidInputException;
import io.polyrag.core.config.Settings;
import io.polyrag.core.model.JobInfo;
import io.polyrag.core.model.JobStatus;
import java.io.PrintWriter;
import java.util.LinkedHashMap;
import java.util.Locale;
import java.util.Map;
import java.util.concurrent.Callable;
import picocli.CommandLine.Command;
import picocli.CommandLine.Option;
import picocli.CommandLine.Parameters;
import picocli.CommandLine.ParentCommand;
import picocli.CommandLine.Spec;
import picocli.CommandLine;

/** {@code polyrag tune KB}: learn the knowledge base's fusion from its judged queries. */
@Command(name = "tune", mixinStandardHelpOptions = true, description = {"Fit KB's fusion to its judged queries "
        + "(at least 20; 'polyrag judgments add'): the configured fusion and a grid of others (weighted with the "
        + "vector leg's share 0.1-0.9, rrf k 10-100) are tried, and 5-fold cross-validation estimates what choosing "
        + "among them is worth. The choice is applied to KB's searches only when that held-out estimate beats the "
        + "configured fusion; otherwise the defaults stay and it says why.",
    "Runs as a job of this process and waits for it; a running server takes the same job at POST "
        + "/v1/knowledge-bases/{name}/tune.", "Exit code 0 when it finished (applied or not), 1 when it failed."})
final class TuneCommand implements Callable<Integer> {
    @ParentCommand
    PolyragCommand parent;

    @Spec
    CommandLine.Model.CommandSpec spec;

    @Parameters(paramLabel = "KB", description = "The knowledge base.")
    String kb;

    @Option(names = "--drop", description = "Drop KB's tuning instead: its searches use the configured fusion again.")
    boolean drop;

    @Option(names = "--show", description = "Print what the last tuning found, without tuning.")
    boolean show;

    @Option(names = "--json", description = "Print the tuning as one JSON object.")
    boolean json;

    /** A line for a person, or with --json one object a script can read: the knowledge base, a status, an error. */
    private void say(PrintWriter out, String line, String status, String error) {
        if (!json) {
            out.println(line);
            return;
        }
        Map<String, Object> o = new LinkedHashMap<>();
        o.put("knowledge_base", kb);
        o.put("status", status);
        o.put("error", error);
        out.println(Json.MAPPER.writeValueAsString(o));
    }

    @Override
    public Integer call() throws InterruptedException {
        PrintWriter out = spec.commandLine().getOut();
        if (drop && show) {
            throw new InvalidInputException("--drop and --show: give one (--drop drops the tuning, --show prints it)");
        }
        // --show and --drop run no job: no worker takes up what a stopped server left queued meanwhile.
        try (Polyrag polyrag = show || drop ? parent.openIndexed(Map.of(Settings.INGEST_WORKERS.key(), "0"))
                : parent.openToRunJobs()) {
            var kbs = polyrag.knowledgeBases();
            if (drop) {
                kbs.dropTuning(kb);
                say(out, kb + ": tuning dropped; its searches use the configured fusion", "dropped", null);
                return Main.OK;
            }
            if (!show) {
                // A tuning already queued (one this command started before a Ctrl-C, resumed at this start) is
                // followed to its end: starting another was refused for as long as it waited.
                String running = kbs.runningTuning(kb).orElse(null);
                if (running != null) {
                    spec.commandLine().getErr().println("following the tuning already queued (job " + running + ")");
                }
                String id = running != null ? running : kbs.tune(kb);
                String shown = "";
                while (true) {
                    JobInfo j = polyrag.jobs().get(id);
                    String line = j.progress().stage() + ": " + j.progress().processed() + " of "
                            + j.progress().total() + " searches";
                    if (!line.equals(shown) && j.progress().total() > 0 && j.progress().processed()
                            % Math.max(1, j.progress().total() / 20) == 0) {
                        spec.commandLine().getErr().println(line);
                        shown = line;
                    }
                    if (j.status().finished()) {
                        if (j.status() != JobStatus.SUCCEEDED) {
                            say(out, "tune " + j.status().wireName() + (j.error() == null ? "" : ": " + j.error()),
                                    j.status().wireName(), j.error());
                            return Main.PARTIAL;
                        }
                        break;
                    }
                    Thread.sleep(250);
                }
            }
            FusionTuning t = kbs.tuning(kb).orElse(null);
            if (t == null) {
                say(out, kb + " was never tuned", "untuned", null);
                return Main.PARTIAL;
            }
            if (json) {
                out.println(Json.MAPPER.writeValueAsString(t));
                return Main.OK;
            }
            out.println(kb + ": " + t.reason());
            out.printf(Locale.ROOT, "%-36s %8s%n", "fusion tried (every judged query)", "nDCG@10");
            t.candidates().forEach(c -> out.printf(Locale.ROOT, "%-36s %8.4f%n", c.name(), c.ndcg10()));
            return Main.OK;
        }
    }
}
