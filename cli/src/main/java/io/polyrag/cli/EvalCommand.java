package io.polyrag.cli;

import io.polyrag.app.Json;
import io.polyrag.app.Polyrag;
import io.polyrag.app.api.KbEvaluation;
import io.polyrag.app.quality.Significance;
import io.polyrag.core.config.Config;
import io.polyrag.core.config.Setting;
import io.polyrag.core.config.Settings;
import io.polyrag.eval.AnswerQuality;
import io.polyrag.eval.Baseline;
import io.polyrag.eval.BeirDataset;
import io.polyrag.eval.ConversationQuality;
import io.polyrag.eval.EvalReport;
import io.polyrag.eval.Evaluation;
import io.polyrag.eval.HtmlReport;
import io.polyrag.eval.IntentQuality;
import io.polyrag.eval.RunSpec;
import java.io.IOException;
import java.io.PrintWriter;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Objects;
import java.util.concurrent.Callable;
import java.util.function.Function;
import picocli.CommandLine.Command;
import picocli.CommandLine.Option;
import picocli.CommandLine.ParentCommand;
import picocli.CommandLine.Spec;
import picocli.CommandLine;

/** {@code polyrag eval --dataset DIR}: index a BEIR dataset and report retrieval quality per configuration. */
@Command(name = "eval", mixinStandardHelpOptions = true, description = "Evaluate retrieval on a BEIR-format dataset (nDCG@10, Recall@100, MRR@10, "
        + "latency) for each modality alone and fused; or, with --answers, how often answers quote the sentence that answers.")
final class EvalCommand implements Callable<Integer> {
    @ParentCommand
    PolyragCommand parent;

    @Spec
    CommandLine.Model.CommandSpec spec;

    @Option(names = "--answers", paramLabel = "FILE", description = "Instead of a dataset: measure answers. FILE has a "
            + "question, a tab and the sentence its answer must quote, per line (eval/answers/questions.tsv); the "
            + "--corpus folders are indexed into a fresh data directory first.")
    Path answers;

    @Option(names = "--conversations", paramLabel = "FILE", description = "Instead of a dataset: measure follow-up "
            + "questions. FILE has one conversation per line (eval/conversations/conversations.jsonl); each follow-up "
            + "is searched alone and rewritten from the earlier turns, and counts when its first hit holds the "
            + "expected sentence. The --corpus folders are indexed into a fresh data directory first.")
    Path conversations;

    @Option(names = "--intents", paramLabel = "FILE", description = "Instead of a dataset: measure the intent router "
            + "offline. FILE has one labelled question per line (eval/intents/questions.jsonl); each is answered with "
            + "the router off and on: the intent decided against its label (per intent), and whether the answer "
            + "quotes the expected sentence. The --corpus folders are indexed into a fresh data directory first.")
    Path intents;

    @Option(names = "--corpus", paramLabel = "DIR", description = "With --answers, --conversations or --intents: a "
            + "folder of documents to index "
            + "(repeatable).")
    List<Path> corpus;

    @Option(names = "--kb", paramLabel = "NAME", description = "Instead of a dataset: measure the knowledge base NAME "
            + "of the data directory on its own judged queries ('polyrag judgments add'): the configured fusion, its "
            + "tuned one and each leg alone. With --baseline (a report saved with --kb NAME --json) it is a "
            + "regression gate: exit code 1 when a run is worse than its namesake there (one-sided p < 0.05, or with "
            + "too few queries worse for a test).")
    String kb;

    @Option(names = "--dataset", paramLabel = "DIR",
            description = "Folder with corpus.jsonl, queries.jsonl and qrels-test.tsv.")
    Path dataset;

    @Option(names = "--qrels", paramLabel = "FILE", description = "Judgements to score against, in the dataset "
            + "folder or a path (default qrels-test.tsv); e.g. qrels-train.tsv to tune without touching the test split.")
    String qrels;

    @Option(names = "--runs", paramLabel = "LIST", description = "Runs, e.g. fulltext,vector,rrf,weighted,"
            + "vector+fulltext:weighted (default: each modality, then vector+fulltext when the graph legs are on "
            + "too, then rrf and weighted); raw-bm25, raw-vector, "
            + "raw-rrf and raw-minmax are the raw-library reference (Lucene BM25 and the same model, one entry per "
            + "document, top-1000 lists fused by RRF k 60 or by min-max scores with equal weights, none of polyrag's "
            + "pipeline): fused runs are then compared with the better raw fusion.")
    List<String> runs;

    @Option(names = "--index", paramLabel = "DIR",
            description = "Where the dataset is indexed (default: <data dir>/eval/<dataset>); reused when unchanged.")
    Path index;

    @Option(names = "--json", description = "Print the report as one JSON object.")
    boolean json;

    @Option(names = "--out", paramLabel = "FILE", description = "Also write an HTML report with per-query charts.")
    Path out;

    @Option(names = "--run-files", paramLabel = "DIR", description = "Also write each run's ranking of each query to "
            + "DIR as a TREC run file (query Q0 document rank score run; RUN.trec, the run's name with ':' as '_'), "
            + "for trec_eval, ranx or a fusion of your own. With --dataset.")
    Path runFiles;

    @Option(names = "--baseline", paramLabel = "FILE", description = "A report saved with --json from another "
            + "configuration: each run is compared query by query with its namesake there (paired test).")
    Path baseline;

    @Option(names = "--versus", paramLabel = "RUN", description = "Compare every other run query by query with this "
            + "run of the same report (paired test), e.g. --versus vector+fulltext:weighted to see what the graph "
            + "arms add.")
    String versus;

    // style: a command: its options checked and its output written, top to bottom as the user reads them
    @Override
    public Integer call() throws IOException {
        PrintWriter stdout = spec.commandLine().getOut();
        PrintWriter err = spec.commandLine().getErr();
        if (runFiles != null && dataset == null) {
            throw new CommandLine.ParameterException(spec.commandLine(), "--run-files goes with --dataset DIR: the "
                    + "run files are a dataset's rankings");
        }
        checkModes();
        // Made and checked now, not after the first run's searches (a file by that name, or a folder not writable,
        // lost the evaluation to a stack trace or a "cannot read").
        if (runFiles != null) {
            try {
                Files.createDirectories(runFiles);
            } catch (IOException e) {
                throw new CommandLine.ParameterException(spec.commandLine(), "--run-files " + runFiles + ": cannot "
                        + "make that folder (" + e.getMessage() + "); name a folder you can write");
            }
            if (!Files.isWritable(runFiles)) {
                throw new CommandLine.ParameterException(spec.commandLine(), "--run-files " + runFiles + ": not "
                        + "writable; name a folder you can write");
            }
        }
        // Checked before the evaluation runs, not after it, which lost a finished run to a mistyped folder.
        if (out != null) {
            Path parent = out.toAbsolutePath().getParent();
            if (Files.isDirectory(out) || parent == null || !Files.isDirectory(parent) || !Files.isWritable(parent)) {
                throw new CommandLine.ParameterException(spec.commandLine(), "--out " + out + ": cannot write a "
                        + "report there (" + (Files.isDirectory(out) ? "it is a folder" : "its folder does not exist "
                        + "or is not writable") + "); name a file in an existing folder");
            }
        }
        if (answers != null) {
            return answers(stdout);
        }
        if (conversations != null) {
            return conversations(stdout);
        }
        if (intents != null) {
            return intents(stdout);
        }
        if (kb != null) {
            return knowledgeBase(stdout, err);
        }
        if (dataset == null) {
            throw new CommandLine.ParameterException(spec.commandLine(), "give --dataset DIR (retrieval), --kb NAME (a knowledge base on its judged queries), "
                    + "--answers FILE --corpus DIR (answers), --conversations FILE --corpus DIR (follow-ups) or "
                    + "--intents FILE --corpus DIR (the intent router)");
        }
        if (versus != null && baseline != null) {
            throw new CommandLine.ParameterException(spec.commandLine(), "give --baseline or --versus, not "
                    + "both: each fills the same comparison");
        }
        Baseline base = baseline == null ? null : Baseline.load(baseline);
        BeirDataset ds = BeirDataset.load(dataset, qrels);
        ds.warnings().forEach(w -> err.println("eval: warning: " + w));
        Path dir = index != null ? index
                : parent.config(Map.of()).get(Settings.DATA_DIR).resolve("eval").resolve(ds.name());
        try (Polyrag polyrag = parent.open(embedded(err, Map.of(Settings.DATA_DIR.key(), dir.toString(),
                Settings.SEARCH_MAX_TOP_K.key(), "1000", Settings.INGEST_WORKERS.key(), "0",
                // A benchmark's queries may be whole passages (ArguAna's arguments): none refused for its length.
                Settings.SEARCH_MAX_QUERY_CHARS.key(), "100000",
                // A benchmark's documents are judged by id: two with the same text are two documents.
                Settings.INGEST_DUPLICATES.key(), "allow",
                // Each run embeds its queries itself, so its latency is its own, not the first run's leftovers.
                Settings.EMBEDDING_QUERY_CACHE.key(), "0")))) {
            List<RunSpec> specs = runs == null ? RunSpec.defaults(polyrag.admin().status().modalities())
                    : PolyragCommand.split(runs).stream().map(r -> RunSpec.parse(r, polyrag.admin().status().modalities()))
                            .toList();
            if (versus != null && specs.stream().noneMatch(x -> x.name().equals(versus.strip()))) {
                throw new CommandLine.ParameterException(spec.commandLine(), "--versus " + versus
                        + ": not one of the runs (" + String.join(", ", specs.stream().map(RunSpec::name).toList())
                        + ")");
            }
            Progress progress = Progress.forConsole(err);
            EvalReport report = Evaluation.run(polyrag, ds, specs, progress, err::println, runFiles);
            progress.finish();
            if (versus != null) {
                report = Baseline.versus(report, versus.strip());
            }
            if (base != null) {
                List<String> notes = new ArrayList<>();
                report = base.compare(report, notes);
                notes.forEach(n -> err.println("eval: baseline: " + n));
            }
            if (out != null) {
                write(out, HtmlReport.render(report));
                err.println("eval: wrote " + out);
            }
            if (json) {
                stdout.println(Json.MAPPER.writeValueAsString(report));
            } else {
                print(report, stdout);
            }
            return Main.OK;
        }
    }

    /**
     * One evaluation at a time, with the options it reads: the first given won, and the others' options were ignored
     * without a word (an {@code --out} under {@code --kb} wrote no file, a {@code --baseline} beside {@code --answers}
     * gated nothing).
     */
    private void checkModes() {
        Map<String, Object> modes = new LinkedHashMap<>();
        modes.put("--answers", answers);
        modes.put("--conversations", conversations);
        modes.put("--intents", intents);
        modes.put("--kb", kb);
        modes.put("--dataset", dataset);
        List<String> given = modes.entrySet().stream().filter(e -> e.getValue() != null).map(Map.Entry::getKey)
                .toList();
        if (given.size() > 1) {
            throw new CommandLine.ParameterException(spec.commandLine(), "give one of " + String.join(", ", given)
                    + ": each is an evaluation of its own");
        }
        if (given.isEmpty()) {
            return;
        }
        String mode = given.getFirst();
        Map<String, Object> withDataset = new LinkedHashMap<>();
        withDataset.put("--qrels", qrels);
        withDataset.put("--runs", runs);
        withDataset.put("--index", index);
        withDataset.put("--out", out);
        withDataset.put("--versus", versus);
        if (!mode.equals("--dataset")) {
            withDataset.forEach((option, value) -> {
                if (value != null) {
                    throw new CommandLine.ParameterException(spec.commandLine(), option + " goes with --dataset DIR, "
                            + "not " + mode);
                }
            });
        }
        if (baseline != null && !mode.equals("--dataset") && !mode.equals("--kb")) {
            throw new CommandLine.ParameterException(spec.commandLine(), "--baseline goes with --dataset DIR or --kb "
                    + "NAME, not " + mode);
        }
        if (corpus != null && !corpus.isEmpty() && (mode.equals("--dataset") || mode.equals("--kb"))) {
            throw new CommandLine.ParameterException(spec.commandLine(), "--corpus goes with --answers, "
                    + "--conversations or --intents, not " + mode);
        }
    }

    /**
     * {@code --kb}: the knowledge base's search on its judged queries; with {@code --baseline}, each run against its
     * namesake in a saved report, failing when one is significantly worse.
     */
    private int knowledgeBase(PrintWriter out, PrintWriter err) {
        KbEvaluation base = null;
        if (baseline != null) {
            try {
                base = Json.MAPPER.readValue(Files.readString(baseline, StandardCharsets.UTF_8),
                        KbEvaluation.class);
            } catch (IOException | RuntimeException e) {
                throw new CommandLine.ParameterException(spec.commandLine(), "--baseline " + baseline
                        + ": not a report saved with 'polyrag eval --kb NAME --json' (" + e.getMessage() + ")");
            }
            // Read before the evaluation runs: a report without its runs' per-query scores failed after it, with a
            // stack trace.
            if (base.runs() == null || base.runs().stream().anyMatch(r -> r == null || r.name() == null
                    || r.perQueryNdcg() == null)) {
                throw new CommandLine.ParameterException(spec.commandLine(), "--baseline " + baseline + ": a report "
                        + "saved with 'polyrag eval --kb NAME --json' holds 'runs', each with its 'name' and "
                        + "'per_query_ndcg'; this one lacks them");
            }
        }
        try (Polyrag polyrag = parent.openIndexed(Map.of(Settings.INGEST_WORKERS.key(), "0"))) {
            KbEvaluation e = polyrag.knowledgeBases().evaluate(kb);
            if (json) {
                out.println(Json.MAPPER.writeValueAsString(e));
            } else {
                out.printf("%s: %d judged queries over %d documents%n%n", e.knowledgeBase(), e.queries(),
                        e.documents());
                out.printf("%-12s %8s %17s %10s %8s   %s%n", "run", "nDCG@10", "95% CI", "Recall@100", "MRR@10",
                        "against configured");
                for (KbEvaluation.Run r : e.runs()) {
                    Significance.Comparison c = r.vsConfigured();
                    out.printf(Locale.ROOT, "%-12s %8.4f %17s %10.4f %8.4f   %s%n", r.name(), r.ndcg10(),
                            String.format(Locale.ROOT, "%.4f-%.4f", r.ndcg10Ci95().get(0), r.ndcg10Ci95().get(1)),
                            r.recall100(), r.mrr10(), c == null ? "" : String.format(Locale.ROOT, "%+.4f (p %.4f)",
                                    c.delta(), c.p()));
                }
            }
            return base == null ? Main.OK : gate(e, base, err);
        }
    }

    /** Compares an evaluation with a saved one: 0 when nothing got significantly worse, 2 when nothing compared. */
    private int gate(KbEvaluation e, KbEvaluation base, PrintWriter err) {
        int worse = 0;
        int compared = 0;
        if (base.knowledgeBase() != null && !base.knowledgeBase().equals(e.knowledgeBase())) {
            err.println("eval: baseline: " + baseline + " is of knowledge base '" + base.knowledgeBase() + "', not '"
                    + e.knowledgeBase() + "': compared by query id all the same");
        }
        for (KbEvaluation.Run gone : base.runs()) {
            if (e.runs().stream().noneMatch(r -> r.name().equals(gone.name()))) {
                err.println("eval: baseline: run '" + gone.name() + "' of " + baseline + " is gone: not compared");
            }
        }
        for (KbEvaluation.Run r : e.runs()) {
            var then = base.runs().stream().filter(b -> b.name().equals(r.name())).findFirst();
            if (then.isEmpty()) {
                err.println("eval: baseline: no run '" + r.name() + "' in " + baseline + ": not compared");
                continue;
            }
            // A gate that compared nothing must not pass: judgments replaced or renamed share no query ids.
            long shared = r.perQueryNdcg().keySet().stream().filter(then.get().perQueryNdcg()::containsKey)
                    .count();
            // Nor one that compared a handful of a thousand: judgments replaced but one kept, unchanged, passed.
            if (shared == 0 || shared * 2 < r.perQueryNdcg().size()) {
                err.println("eval: baseline: " + r.name() + " shares " + (shared == 0 ? "no" : "only " + shared + " of "
                        + r.perQueryNdcg().size()) + " judged queries with " + baseline + " (the judgments changed?): "
                        + "not compared");
                continue;
            }
            if (shared < r.perQueryNdcg().size()) {
                err.printf(Locale.ROOT, "eval: baseline: %s compared on the %d of %d queries both judged%n",
                        r.name(), shared, r.perQueryNdcg().size());
            }
            compared++;
            // One-sided: is it worse? With too few queries worse for any test, a drop is a regression (a search is
            // deterministic: a query that changed, changed for a reason).
            Significance.Regression c = Significance.regression(r.perQueryNdcg(), then.get().perQueryNdcg());
            boolean regressed = c.delta() < 0 && (c.p() < 0.05 || c.untestable());
            worse += regressed ? 1 : 0;
            err.printf(Locale.ROOT, "eval: baseline: %-12s %+.4f nDCG@10 against %s (%d of %d queries changed, %d "
                    + "worse; one-sided p %.4f)%s%n", r.name(), c.delta(), baseline.getFileName(), c.changed(),
                    c.compared(), c.worsened(), c.p(), !regressed ? "" : c.p() < 0.05 ? ": significantly worse"
                            : ": worse, on too few queries worse for a test");
        }
        if (compared == 0) {
            err.println("eval: baseline: nothing could be compared with " + baseline + ": not a pass");
            return Main.USAGE;
        }
        return worse == 0 ? Main.OK : Main.PARTIAL;
    }

    /** The store backends an evaluation's own data directory uses unless its command line names another. */
    // The file blob store's folder too: opened over a folder replicas share, the evaluation's empty catalog owned
    // none of the queued jobs' staged uploads, and its sweep deleted them.
    private static final List<Setting<String>> BACKENDS = List.of(Settings.CATALOG_BACKEND, Settings.VECTOR_BACKEND,
            Settings.FULLTEXT_BACKEND, Settings.GRAPH_BACKEND, Settings.RDF_BACKEND, Settings.BLOB_BACKEND,
            Settings.BLOB_DIR);

    /**
     * {@code more} with every store on its embedded backend, except those the command line's own {@code --set}
     * names: an evaluation indexes a corpus into its own data directory, and a deployment's environment or settings
     * file naming PostgreSQL, OpenSearch or S3 would have had it write the corpus into, and delete from, the
     * production stores (as the default tenant's knowledge base "eval").
     */
    private Map<String, String> embedded(PrintWriter err, Map<String, String> more) {
        Map<String, String> all = new LinkedHashMap<>(more);
        Config configured = parent.config(Map.of());
        List<String> moved = new ArrayList<>();
        for (Setting<String> backend : BACKENDS) {
            if (parent.settings.containsKey(backend.key())) {
                continue;
            }
            all.put(backend.key(), backend.defaultValue());
            if (!backend.defaultValue().equals(configured.get(backend))) {
                moved.add(backend.key() + "=" + configured.get(backend));
            }
        }
        if (!moved.isEmpty()) {
            err.println("eval: the evaluation's stores are embedded in its own folder, not the configured "
                    + String.join(", ", moved) + " (--set KEY=VALUE on this command evaluates a networked one)");
        }
        return all;
    }

    /**
     * Runs {@code body} on a fresh data directory (indexed by the body, deleted after), ingesting on the caller's
     * thread.
     */
    private int inFreshDirectory(String prefix, Function<Polyrag, Integer> body)
            throws IOException {
        Path dir = Files.createTempDirectory(prefix);
        try (Polyrag polyrag = parent.open(embedded(spec.commandLine().getErr(),
                Map.of(Settings.DATA_DIR.key(), dir.toString(), Settings.INGEST_WORKERS.key(), "0")))) {
            return body.apply(polyrag);
        } finally {
            try (var files = Files.walk(dir)) {
                for (Path f : files.sorted(Comparator.reverseOrder()).toList()) {
                    Files.deleteIfExists(f);
                }
            }
        }
    }

    /** {@code --conversations}: how often a follow-up's first hit holds its passage, alone and with the history. */
    private int conversations(PrintWriter out) throws IOException {
        if (corpus == null || corpus.isEmpty()) {
            throw new CommandLine.ParameterException(spec.commandLine(), "--conversations needs --corpus DIR: "
                    + "the documents the conversations are about");
        }
        return inFreshDirectory("polyrag-conversations", polyrag -> {
            ConversationQuality.Report r = ConversationQuality.run(polyrag,
                    conversations, corpus);
            if (json) {
                out.println(Json.MAPPER.writeValueAsString(r));
                return Main.OK;
            }
            for (ConversationQuality.Case c : r.cases()) {
                if (!c.withHistory()) {
                    out.printf("missed: %s: %s%n  searched: %s%n  expected in: %s%s%n", c.conversation(), c.question(),
                            c.rewritten(), c.document(), c.alone() ? " (found alone)" : "");
                }
            }
            int n = r.cases().size();
            out.printf(Locale.ROOT, "%nfollow-ups whose first hit holds the answer: alone %d of %d (%.1f%%), with the "
                    + "conversation %d of %d (%.1f%%); first turns %d of %d; over %d documents%n", r.alone(), n,
                    n == 0 ? 0 : 100.0 * r.alone() / n, r.withHistory(), n, n == 0 ? 0 : 100.0 * r.withHistory() / n,
                    r.firstTurnsFound(), r.firstTurns(), r.documents());
            return Main.OK;
        });
    }

    /** {@code --intents}: the router's decisions against their labels, and the answers with it off and on. */
    private int intents(PrintWriter out) throws IOException {
        if (corpus == null || corpus.isEmpty()) {
            throw new CommandLine.ParameterException(spec.commandLine(), "--intents needs --corpus DIR: the "
                    + "documents the questions are about");
        }
        return inFreshDirectory("polyrag-intents", polyrag -> {
            IntentQuality.Report r = IntentQuality.run(polyrag, intents, corpus);
            if (json) {
                out.println(Json.MAPPER.writeValueAsString(r));
                return Main.OK;
            }
            for (IntentQuality.Case c : r.cases()) {
                if (!c.correct()) {
                    out.printf("%s: %s%n  labelled %s%s, decided %s%s (%s)%n", c.id(), c.question(), c.intent(),
                            c.scope() == null ? "" : "/" + c.scope(), c.decided(), c.decidedScope() == null ? ""
                                    : "/" + c.decidedScope(), c.reason());
                }
            }
            out.printf("%n%-14s %9s %8s%n", "intent", "questions", "correct");
            for (IntentQuality.PerIntent p : r.perIntent()) {
                out.printf(Locale.ROOT, "%-14s %9d %8d%n", p.intent(), p.questions(), p.correct());
            }
            int n = r.cases().size();
            out.printf(Locale.ROOT, "%nintents decided right: %d of %d (%.1f%%); answers that quote their sentence "
                    + "(or, for a summary, draw on its document): router off %d of %d, on %d of %d%n", r.correct(), n,
                    n == 0 ? 0 : 100.0 * r.correct() / n, r.quotedBefore(), r.quotable(), r.quotedAfter(),
                    r.quotable());
            return Main.OK;
        });
    }

    /** {@code --answers}: how often the answer quotes the sentence that answers. */
    private int answers(PrintWriter out) throws IOException {
        if (corpus == null || corpus.isEmpty()) {
            throw new CommandLine.ParameterException(spec.commandLine(), "--answers needs --corpus DIR: the "
                    + "documents the questions are about");
        }
        return inFreshDirectory("polyrag-answers", polyrag -> {
            AnswerQuality.Report r = AnswerQuality.run(polyrag, answers, corpus);
            if (json) {
                out.println(Json.MAPPER.writeValueAsString(r));
                return Main.OK;
            }
            for (AnswerQuality.Case c : r.cases()) {
                if (!c.quoted()) {
                    out.printf("missed: %s%n  expected: %s%n  answered: %s%n", c.question(), c.expected(), c.answer());
                }
            }
            out.printf(Locale.ROOT, "%nanswers quoting the expected sentence: %d of %d (%.1f%%), over %d documents%n",
                    r.quoted(), r.cases().size(), 100 * r.rate(), r.documents());
            return Main.OK;
        });
    }

    private static void write(Path file, String html) {
        try {
            Files.writeString(file, html, StandardCharsets.UTF_8);
        } catch (IOException e) {
            throw new UncheckedIOException("cannot write " + file, e);
        }
    }

    private static void print(EvalReport r, PrintWriter out) {
        out.printf("%s: %d documents, %d queries; %s; each search asks for %d chunks%n%n", r.dataset(),
                r.documents(), r.queries(), EvalReport.describe(r.ingest()), r.searchDepth());
        out.printf("%-28s %-10s %8s %17s %10s %8s %8s %8s%n", "run", "fusion", "nDCG@10", "95% CI", "Recall@100",
                "MRR@10", "p50 ms", "p99 ms");
        for (EvalReport.Run x : r.runs()) {
            out.printf(Locale.ROOT, "%-28s %-10s %8.4f %17s %10.4f %8.4f %8.1f %8.1f%n", x.name(), x.fusion(),
                    x.ndcg10(), String.format(Locale.ROOT, "%.4f-%.4f", x.ndcg10Ci95().get(0), x.ndcg10Ci95().get(1)),
                    x.recall100(), x.mrr10(), x.p50Ms(), x.p99Ms());
        }
        r.runs().stream().map(EvalReport.Run::vsBestSingle).filter(Objects::nonNull).findFirst()
                .ifPresent(c -> comparisons(out, "fused runs against the best single modality (" + c.run() + ")",
                        r.runs(), EvalReport.Run::vsBestSingle));
        comparisons(out, "fused runs against the better raw-library fusion (raw-rrf, raw-minmax)", r.runs(), EvalReport.Run::vsRaw);
        comparisons(out, "against the baseline's run of the same name (or the --versus run)", r.runs(),
                EvalReport.Run::vsBaseline);
    }

    private static void comparisons(PrintWriter out, String title, List<EvalReport.Run> runs,
            Function<EvalReport.Run, Significance.Comparison> which) {
        List<EvalReport.Run> compared = runs.stream().filter(x -> which.apply(x) != null).toList();
        if (compared.isEmpty()) {
            return;
        }
        out.printf("%n%s, paired over the queries:%n", title);
        for (EvalReport.Run x : compared) {
            Significance.Comparison c = which.apply(x);
            out.printf(Locale.ROOT, "  %-26s %+.4f nDCG@10 (95%% CI %+.4f to %+.4f, randomisation p %.4f)%n",
                    x.name(), c.delta(), c.ci95().get(0), c.ci95().get(1), c.p());
        }
    }
}
