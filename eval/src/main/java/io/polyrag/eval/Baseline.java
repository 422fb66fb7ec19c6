package io.polyrag.eval;

import io.polyrag.app.quality.Significance;
import io.polyrag.core.InvalidInputException;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import tools.jackson.core.JacksonException;
import tools.jackson.databind.JsonNode;
import tools.jackson.databind.json.JsonMapper;

/**
 * An earlier report ({@code polyrag eval --json} output) to compare against: its runs' per-query nDCG@10, so two
 * configurations (another BM25 setting, chunk size or model) can be compared query by query, which is the only
 * comparison that can tell a real difference from the choice of queries.
 *
 * @param file where it was read from
 * @param dataset the dataset it was measured on
 * @param runs per-query nDCG@10 by run name
 * @param searchDepth chunks its searches asked for; null when the report does not say (written before it was kept,
 *     when {@code eval} searched 300 deep)
 */
public record Baseline(Path file, String dataset, Map<String, Map<String, Double>> runs, Integer searchDepth) {
    private static final JsonMapper JSON = JsonMapper.builder().build();

    public static Baseline load(Path file) {
        if (!Files.isRegularFile(file)) {
            throw new InvalidInputException("baseline " + file + " is missing: give a file written by "
                    + "polyrag eval --json");
        }
        JsonNode root;
        try {
            root = JSON.readTree(Files.readString(file));
        } catch (IOException | JacksonException e) {
            throw new InvalidInputException("baseline " + file + " is not a JSON report: " + e.getMessage(), e);
        }
        JsonNode runs = root == null ? null : root.get("runs");
        if (runs == null || !runs.isArray()) {
            throw new InvalidInputException("baseline " + file + " has no \"runs\" array: give a file written by "
                    + "polyrag eval --json");
        }
        Map<String, Map<String, Double>> out = new LinkedHashMap<>();
        for (JsonNode run : runs) {
            JsonNode name = run.get("name");
            JsonNode perQuery = run.get(EvalReport.PER_QUERY);
            if (name == null || !name.isString() || perQuery == null || !perQuery.isObject()) {
                throw new InvalidInputException("baseline " + file + ": a run without \"name\" or \""
                        + EvalReport.PER_QUERY + "\" (reports from before per-query scores were kept cannot be "
                        + "compared; run that configuration again)");
            }
            Map<String, Double> scores = new LinkedHashMap<>();
            for (Map.Entry<String, JsonNode> e : perQuery.properties()) {
                if (!e.getValue().isNumber()) {
                    throw new InvalidInputException("baseline " + file + ": run " + name.asString() + ", query "
                            + e.getKey() + " has a score that is not a number");
                }
                scores.put(e.getKey(), e.getValue().asDouble());
            }
            out.put(name.asString(), scores);
        }
        JsonNode dataset = root.get("dataset");
        JsonNode depth = root.get("searchDepth");
        return new Baseline(file, dataset == null ? "" : dataset.asString(), out,
                depth != null && depth.isInt() ? depth.asInt() : null);
    }

    /**
     * Each run of {@code report} with its paired comparison against the baseline's run of the same name; what could
     * not be compared is said in {@code notes}.
     */
    public EvalReport compare(EvalReport report, List<String> notes) {
        if (!dataset.isEmpty() && !dataset.equals(report.dataset())) {
            notes.add("the baseline was measured on " + dataset + ", this report on " + report.dataset());
        }
        if (searchDepth == null || searchDepth != report.searchDepth()) {
            // A search's legs are as deep as it asks: a deeper one ranks its top a little differently.
            notes.add("the baseline's searches asked for " + (searchDepth == null ? "300 chunks (it does not say; "
                    + "reports before the depth was kept did)" : searchDepth + " chunks") + ", this report's for "
                    + report.searchDepth() + ": part of any difference is that depth");
        }
        List<EvalReport.Run> out = new ArrayList<>();
        for (EvalReport.Run run : report.runs()) {
            Map<String, Double> base = runs.get(run.name());
            if (base == null) {
                notes.add("run " + run.name() + " is not in the baseline");
                out.add(run);
                continue;
            }
            long shared = run.perQueryNdcg().keySet().stream().filter(base::containsKey).count();
            if (shared < run.perQueryNdcg().size() || shared < base.size()) {
                notes.add("run " + run.name() + ": " + shared + " queries in both (this report "
                        + run.perQueryNdcg().size() + ", baseline " + base.size() + "); only those are paired");
            }
            out.add(shared == 0 ? run : run.withBaseline(Significance.compare(run.perQueryNdcg(),
                    "baseline " + run.name(), base)));
        }
        return new EvalReport(report.dataset(), report.documents(), report.queries(), out, report.ingest(),
                report.warnings(), report.searchDepth());
    }

    /**
     * Each run of {@code report} other than {@code name} with its paired comparison against the report's own run
     * {@code name} (e.g. the four-leg fusion against {@code vector+fulltext:weighted}, both measured in one run over
     * one index). Fails with the runs there are when {@code name} is not one of them.
     */
    public static EvalReport versus(EvalReport report, String name) {
        EvalReport.Run against = report.runs().stream().filter(r -> r.name().equals(name)).findFirst()
                .orElseThrow(() -> new InvalidInputException("--versus " + name + ": no run of that name in this "
                        + "report; runs: " + String.join(", ", report.runs().stream().map(EvalReport.Run::name)
                        .toList())));
        List<EvalReport.Run> out = new ArrayList<>();
        for (EvalReport.Run run : report.runs()) {
            out.add(run == against ? run : run.withBaseline(Significance.compare(run.perQueryNdcg(), name,
                    against.perQueryNdcg())));
        }
        return new EvalReport(report.dataset(), report.documents(), report.queries(), out, report.ingest(),
                report.warnings(), report.searchDepth());
    }
}
