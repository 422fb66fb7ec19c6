package io.polyrag.eval;

import io.polyrag.app.quality.Significance;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.polyrag.core.InvalidInputException;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import tools.jackson.databind.json.JsonMapper;

class BaselineTest {
    @TempDir
    Path tmp;

    private static EvalReport.Run run(String name, double shift, int queries) {
        Map<String, Double> perQuery = new LinkedHashMap<>();
        for (int i = 0; i < queries; i++) {
            perQuery.put("q" + i, Math.min(1.0, (i % 4) / 4.0 + shift));
        }
        double mean = perQuery.values().stream().mapToDouble(Double::doubleValue).average().orElse(0);
        return EvalReport.Run.measured(name, List.of("vector"), "none", new EvalReport.Measured(mean, 1, mean, 1, 2,
                Significance.ci95(perQuery.values())), perQuery);
    }

    private static EvalReport report(String dataset, EvalReport.Run... runs) {
        return new EvalReport(dataset, 10, runs[0].perQueryNdcg().size(), List.of(runs),
                new EvalReport.Ingest(1, 1, 1, 1, 0), List.of(), 100);
    }

    private Path save(EvalReport r) throws IOException {
        Path file = tmp.resolve("base.json");
        Files.writeString(file, JsonMapper.builder().build().writeValueAsString(r));
        return file;
    }

    @Test
    void compares_each_run_with_its_namesake_query_by_query() throws IOException {
        Baseline base = Baseline.load(save(report("scifact", run("vector", 0, 40), run("fulltext", 0, 40))));
        assertThat(base.runs()).containsOnlyKeys("vector", "fulltext");

        List<String> notes = new ArrayList<>();
        EvalReport now = base.compare(report("scifact", run("vector", 0.1, 40), run("weighted", 0, 40)), notes);

        Significance.Comparison c = now.runs().get(0).vsBaseline();
        assertThat(c.run()).isEqualTo("baseline vector");
        assertThat(c.delta()).isPositive().isLessThanOrEqualTo(0.1);
        assertThat(c.p()).isLessThan(0.01);
        assertThat(now.runs().get(1).vsBaseline()).isNull();
        assertThat(notes).containsExactly("run weighted is not in the baseline");
        // The HTML report says what it was compared with: the saved report, not a run of its own (--versus).
        assertThat(HtmlReport.render(now)).contains("the same-named run of the report given with --baseline")
                .doesNotContain("--versus");
        assertThat(HtmlReport.render(Baseline.versus(report("scifact", run("vector", 0.1, 40), run("fulltext", 0,
                40)), "fulltext"))).contains("run fulltext of this report (given with --versus)");
    }

    @Test
    void says_when_the_searches_were_not_equally_deep() throws IOException {
        EvalReport deep = report("scifact", run("vector", 0, 40));
        deep = new EvalReport(deep.dataset(), deep.documents(), deep.queries(), deep.runs(), deep.ingest(),
                deep.warnings(), 300);
        List<String> notes = new ArrayList<>();
        Baseline.load(save(deep)).compare(report("scifact", run("vector", 0, 40)), notes);
        assertThat(notes).containsExactly("the baseline's searches asked for 300 chunks, this report's for 100: part "
                + "of any difference is that depth");

        Path old = tmp.resolve("old.json");
        Files.writeString(old, Files.readString(save(report("scifact", run("vector", 0, 40)))).replace(
                "\"searchDepth\":100", "\"was\":0"));
        notes.clear();
        Baseline.load(old).compare(report("scifact", run("vector", 0, 40)), notes);
        assertThat(notes).singleElement().asString().contains("300 chunks (it does not say");

        notes.clear();
        Baseline.load(save(report("scifact", run("vector", 0, 40)))).compare(report("scifact", run("vector", 0, 40)),
                notes);
        assertThat(notes).isEmpty();
    }

    @Test
    void says_when_datasets_or_queries_differ() throws IOException {
        Baseline base = Baseline.load(save(report("nfcorpus", run("vector", 0, 30))));
        List<String> notes = new ArrayList<>();
        EvalReport now = base.compare(report("scifact", run("vector", 0, 40)), notes);
        assertThat(notes).anyMatch(n -> n.contains("measured on nfcorpus"))
                .anyMatch(n -> n.contains("30 queries in both (this report 40, baseline 30)"));
        assertThat(now.runs().getFirst().vsBaseline().delta()).isZero();
    }

    @Test
    void bad_baselines_are_refused_naming_the_file() throws IOException {
        Path missing = tmp.resolve("nope.json");
        assertThatThrownBy(() -> Baseline.load(missing)).isInstanceOf(InvalidInputException.class)
                .hasMessageContaining("nope.json").hasMessageContaining("missing");
        Path notJson = Files.writeString(tmp.resolve("a.json"), "{\"runs\": [");
        assertThatThrownBy(() -> Baseline.load(notJson)).isInstanceOf(InvalidInputException.class)
                .hasMessageContaining("a.json").hasMessageContaining("not a JSON report");
        Path noRuns = Files.writeString(tmp.resolve("b.json"), "[1, 2]");
        assertThatThrownBy(() -> Baseline.load(noRuns)).isInstanceOf(InvalidInputException.class)
                .hasMessageContaining("no \"runs\" array");
        Path old = Files.writeString(tmp.resolve("c.json"), "{\"runs\": [{\"name\": \"vector\", \"ndcg@10\": 0.7}]}");
        assertThatThrownBy(() -> Baseline.load(old)).isInstanceOf(InvalidInputException.class)
                .hasMessageContaining("perQueryNdcg@10");
        Path text = Files.writeString(tmp.resolve("d.json"),
                "{\"runs\": [{\"name\": \"vector\", \"perQueryNdcg@10\": {\"q1\": \"high\"}}]}");
        assertThatThrownBy(() -> Baseline.load(text)).isInstanceOf(InvalidInputException.class)
                .hasMessageContaining("query q1");
    }
}
