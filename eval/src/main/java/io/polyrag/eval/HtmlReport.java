package io.polyrag.eval;

import io.polyrag.app.quality.Significance;
import java.util.Comparator;
import java.util.List;
import java.util.Locale;
import java.util.Objects;
import java.util.Set;
import java.util.stream.Collectors;


/**
 * A self-contained HTML page: the ablation table and, for the best fused run against each single-modality run, a
 * per-query chart of nDCG@10 differences (sorted, wins above the axis, losses below) with win/loss/tie counts.
 */
public final class HtmlReport {
    private HtmlReport() {
    }

    public static String render(EvalReport r) {
        StringBuilder sb = new StringBuilder();
        sb.append("<!doctype html><html lang=\"en\"><head><meta charset=\"utf-8\"><title>polyrag eval: ")
                .append(esc(r.dataset())).append("</title><style>")
                .append("body{font:15px/1.5 system-ui,sans-serif;margin:2rem auto;max-width:1240px;color:#222}")
                .append("table{border-collapse:collapse;margin:1rem 0}td,th{padding:.3rem .8rem;border-bottom:1px solid #ddd;")
                .append("text-align:right;white-space:nowrap}td:first-child,th:first-child{text-align:left}tr.best{font-weight:bold}")
                .append("h2{margin-top:2rem}.muted{color:#666}svg{background:#fafafa;border:1px solid #eee}")
                .append("</style></head><body>");
        sb.append("<h1>polyrag eval: ").append(esc(r.dataset())).append("</h1><p class=\"muted\">")
                .append(r.documents()).append(" documents, ").append(r.queries()).append(" judged queries, each search ")
                .append("asking for ").append(r.searchDepth()).append(" chunks. ")
                .append(esc(EvalReport.describe(r.ingest()))).append(".</p>");
        table(sb, r.runs());
        // polyrag's own runs: a raw-library reference (raw-minmax) drawn as "the best fused run" hid polyrag's.
        List<EvalReport.Run> fused = r.runs().stream().filter(x -> !x.raw() && x.modalities().size() > 1).toList();
        List<EvalReport.Run> single = r.runs().stream().filter(x -> !x.raw() && x.modalities().size() == 1).toList();
        if (!fused.isEmpty()) {
            EvalReport.Run best = fused.stream().max(Comparator.comparingDouble(EvalReport.Run::ndcg10)).orElseThrow();
            for (EvalReport.Run s : single) {
                chart(sb, best, s);
            }
        }
        if (!r.warnings().isEmpty()) {
            sb.append("<h2>Warnings</h2><ul>");
            r.warnings().forEach(w -> sb.append("<li>").append(esc(w)).append("</li>"));
            sb.append("</ul>");
        }
        return sb.append("</body></html>\n").toString();
    }

    private static void table(StringBuilder sb, List<EvalReport.Run> runs) {
        double best = runs.stream().mapToDouble(EvalReport.Run::ndcg10).max().orElse(0);
        boolean anyBaseline = runs.stream().anyMatch(x -> x.vsBaseline() != null);
        sb.append("<table><tr><th>run</th><th>modalities</th><th>fusion</th><th>nDCG@10</th><th>95% CI</th>")
                .append("<th>vs best single</th>").append(anyBaseline ? "<th>vs baseline</th>" : "")
                .append("<th>Recall@100</th><th>MRR@10</th><th>p50 ms</th><th>p99 ms</th></tr>");
        for (EvalReport.Run x : runs) {
            String versus = versus(x.vsBestSingle());
            if (anyBaseline) {
                versus += "</td><td>" + versus(x.vsBaseline());
            }
            sb.append(x.ndcg10() == best ? "<tr class=\"best\">" : "<tr>").append("<td>").append(esc(x.name()))
                    .append("</td><td>").append(esc(String.join(" + ", x.modalities()))).append("</td><td>")
                    .append(esc(x.fusion())).append("</td><td>").append(f4(x.ndcg10())).append("</td><td>")
                    .append(f4(x.ndcg10Ci95().get(0))).append("–").append(f4(x.ndcg10Ci95().get(1)))
                    .append("</td><td>").append(versus).append("</td><td>")
                    .append(f4(x.recall100())).append("</td><td>").append(f4(x.mrr10())).append("</td><td>")
                    .append(fmt(x.p50Ms())).append("</td><td>").append(fmt(x.p99Ms())).append("</td></tr>");
        }
        sb.append("</table>");
        runs.stream().map(EvalReport.Run::vsBestSingle).filter(Objects::nonNull).findFirst()
                .ifPresent(c -> sb.append("<p class=\"muted\">95% CI: the mean's normal-approximation interval over ")
                        .append("the queries. vs best single: the mean per-query difference from ").append(esc(c.run()))
                        .append(", with the p-value of a paired randomisation test (").append(Significance.TRIALS)
                        .append(" sign flips); above 0.05 the difference is within what query sampling explains.</p>"));
        if (anyBaseline) {
            // --versus RUN compares with a run of this report; --baseline with the same-named run of a saved one.
            // A --versus comparison names a run of this report; a --baseline one names "baseline RUN".
            Set<String> names = runs.stream().map(EvalReport.Run::name).collect(
                    Collectors.toSet());
            String against = runs.stream().filter(x -> x.vsBaseline() != null && !x.vsBaseline().run().equals(x.name())
                    && names.contains(x.vsBaseline().run())).map(x -> x.vsBaseline().run()).findFirst().orElse(null);
            sb.append("<p class=\"muted\">vs baseline: the same test against ").append(against != null
                    ? "run " + esc(against) + " of this report (given with --versus).</p>"
                    : "the same-named run of the report given with --baseline.</p>");
        }
    }

    private static void chart(StringBuilder sb, EvalReport.Run fused, EvalReport.Run single) {
        List<Double> deltas = fused.perQueryNdcg().entrySet().stream()
                .map(e -> e.getValue() - single.perQueryNdcg().getOrDefault(e.getKey(), 0.0))
                .sorted(Comparator.reverseOrder()).toList();
        long wins = deltas.stream().filter(d -> d > 1e-9).count();
        long losses = deltas.stream().filter(d -> d < -1e-9).count();
        sb.append("<h2>").append(esc(fused.name())).append(" against ").append(esc(single.name())).append("</h2>")
                .append("<p>Per query, nDCG@10 of ").append(esc(fused.name())).append(" minus ")
                .append(esc(single.name())).append(": <b>").append(wins).append(" wins</b>, <b>").append(losses)
                .append(" losses</b>, ").append(deltas.size() - wins - losses).append(" ties.</p>");
        int w = 960;
        int h = 220;
        double bar = (double) w / Math.max(1, deltas.size());
        sb.append("<svg width=\"").append(w).append("\" height=\"").append(h).append("\" role=\"img\" aria-label=\"")
                .append("per-query differences\"><line x1=\"0\" x2=\"").append(w).append("\" y1=\"").append(h / 2)
                .append("\" y2=\"").append(h / 2).append("\" stroke=\"#999\"/>");
        for (int i = 0; i < deltas.size(); i++) {
            double d = deltas.get(i);
            if (Math.abs(d) < 1e-9) {
                continue;
            }
            double len = Math.abs(d) * (h / 2.0 - 4);
            double y = d > 0 ? h / 2.0 - len : h / 2.0;
            sb.append(String.format(Locale.ROOT, "<rect x=\"%.2f\" y=\"%.2f\" width=\"%.2f\" height=\"%.2f\" "
                    + "fill=\"%s\"/>", i * bar, y, Math.max(bar - 0.5, 0.5), len, d > 0 ? "#2e8b57" : "#c0392b"));
        }
        sb.append("</svg>");
    }

    /** A paired difference as {@code +0.0123 (p 0.0456)}; empty when there is none. */
    private static String versus(Significance.Comparison c) {
        return c == null ? "" : String.format(Locale.ROOT, "%+.4f (p %.4f)", c.delta(), c.p());
    }

    private static String f4(double v) {
        return String.format(Locale.ROOT, "%.4f", v);
    }

    private static String fmt(double v) {
        return String.format(Locale.ROOT, "%.1f", v);
    }

    private static String esc(String s) {
        return s.replace("&", "&amp;").replace("<", "&lt;").replace(">", "&gt;").replace("\"", "&quot;");
    }

}
