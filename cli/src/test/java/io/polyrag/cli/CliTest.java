package io.polyrag.cli;

import static org.assertj.core.api.Assertions.assertThat;

import io.polyrag.app.Polyrag;
import io.polyrag.core.config.Config;
import io.polyrag.app.Json;
import java.io.IOException;
import java.io.PrintWriter;
import java.io.StringWriter;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.TestInstance;
import org.junit.jupiter.api.io.TempDir;
import tools.jackson.databind.JsonNode;

/** The command line, run in-process as a user would type it, on the embedded stack. */
@TestInstance(TestInstance.Lifecycle.PER_CLASS)
class CliTest {
    @TempDir
    static Path tmp;

    private Path data;

    record Run(int code, String out, String err) {
    }

    private Run run(String... args) {
        StringWriter out = new StringWriter();
        StringWriter err = new StringWriter();
        List<String> all = new ArrayList<>(List.of("--data-dir", data.toString()));
        all.addAll(List.of(args));
        int code = Main.run(all.toArray(String[]::new), new PrintWriter(out, true), new PrintWriter(err, true));
        return new Run(code, out.toString(), err.toString());
    }

    @BeforeAll
    void ingest() throws IOException {
        data = tmp.resolve("data");
        Path docs = Files.createDirectories(tmp.resolve("docs"));
        Files.writeString(docs.resolve("tea.md"), "# Tea\n\nMatcha is powdered green tea whisked with hot water.");
        Files.writeString(docs.resolve("stars.txt"), "A pulsar is a rotating neutron star that emits beams.");
        Files.writeString(docs.resolve("ports.csv"), "port,depth\nValletta,12");
        Files.write(docs.resolve("skip.bin"), new byte[] {1, 2, 3});
        Run r = run("ingest", docs.toString(), tmp.resolve("missing").toString());
        assertThat(r.code()).as(r.err()).isEqualTo(Main.PARTIAL);
        assertThat(r.out()).contains("4 documents: 3 added, 0 updated, 0 unchanged, 1 failed")
                .contains("skipped 1 file of other types");
        assertThat(r.err()).contains("failed: " + tmp.resolve("missing") + ": no such file or directory")
                .contains("ingest: done");
    }

    @Test
    void search_json_prints_one_object_of_the_documented_shape() {
        Run r = run("search", "--json", "--top-k", "2", "rotating", "neutron", "star");
        assertThat(r.code()).as(r.err()).isZero();
        JsonNode json = Json.MAPPER.readTree(r.out());
        assertThat(json.get("query").asString()).isEqualTo("rotating neutron star");
        assertThat(json.get("took_ms").isNumber()).isTrue();
        assertThat(json.get("degraded").isEmpty()).isTrue();
        JsonNode hit = json.get("hits").get(0);
        assertThat(hit.get("rank").asInt()).isEqualTo(1);
        assertThat(hit.get("title").asString()).isEqualTo("stars");
        assertThat(hit.get("uri").asString()).endsWith("/docs/stars.txt");
        assertThat(hit.get("retrievers").get("fulltext").get("rank").asInt()).isEqualTo(1);
        assertThat(hit.get("retrievers").get("vector").get("score").isNumber()).isTrue();
        assertThat(json.get("hits").size()).isEqualTo(2);
    }

    @Test
    void search_prints_readable_hits_with_their_provenance() {
        Run r = run("search", "powdered", "green", "tea");
        assertThat(r.code()).isZero();
        assertThat(r.out()).startsWith(" 1. Tea  §Tea").contains("fulltext #1").contains("Matcha is powdered");
    }

    @Test
    void ask_answers_with_a_citation_and_lists_the_sources() {
        Run r = run("ask", "what", "is", "matcha?");
        assertThat(r.code()).as(r.err()).isZero();
        assertThat(r.out()).startsWith("Matcha is powdered green tea whisked with hot water. [1]")
                .contains("(extractive)").contains("[1] Tea");
        JsonNode json = Json.MAPPER.readTree(run("ask", "--json", "pulsar").out());
        assertThat(json.get("sources").get(0).get("title").asString()).isEqualTo("stars");
    }

    @Test
    void judged_queries_are_added_listed_and_measured_and_a_saved_report_gates_a_later_one() throws IOException {
        String tea = Json.MAPPER.readTree(run("search", "--json", "matcha").out()).get("hits").get(0)
                .get("document_id").asString();
        String stars = Json.MAPPER.readTree(run("search", "--json", "pulsar").out()).get("hits").get(0)
                .get("document_id").asString();
        Path file = tmp.resolve("judged.json");
        Files.writeString(file, "{\"judgments\": [{\"query_id\": \"tea\", \"query\": \"whisked green tea\", "
                + "\"relevant\": {\"" + tea + "\": 2}}, {\"query_id\": \"star\", \"query\": \"neutron star\", "
                + "\"relevant\": {\"" + stars + "\": 1}}]}");
        Run add = run("judgments", "add", "default", "--file", file.toString());
        assertThat(add.code()).as(add.err()).isZero();
        assertThat(add.out()).contains("added 2 judged queries to default; it has 2");
        assertThat(run("judgments", "list", "default").out()).contains("tea\twhisked green tea").contains("2 judged");
        Path qrels = Files.writeString(tmp.resolve("qrels.tsv"), "query-id\tcorpus-id\tscore\ntea\t" + tea + "\t2\n");
        Path queries = Files.writeString(tmp.resolve("queries.jsonl"), "{\"_id\": \"other\", \"text\": \"x\"}\n"
                + "{\"_id\": \"tea\", \"text\": \"whisked green tea\"}\n");
        Run beir = run("judgments", "add", "default", "--qrels", qrels.toString(), "--queries", queries.toString());
        assertThat(beir.code()).as(beir.err()).isZero();
        assertThat(beir.out()).contains("it has 2");
        Run missing = run("judgments", "add", "default", "--file", tmp.resolve("nosuch.json").toString());
        assertThat(missing.code()).as("a missing file is bad usage, in one line").isEqualTo(Main.USAGE);
        assertThat(missing.err()).contains("cannot read").contains("nosuch.json").doesNotContain("\tat ");
        Run tune = run("tune", "default");
        assertThat(tune.code()).isEqualTo(Main.USAGE);
        assertThat(tune.err()).contains("has 2 judged queries: tuning needs at least 20");
        Run eval = run("eval", "--kb", "default", "--json");
        assertThat(eval.code()).as(eval.err()).isZero();
        JsonNode report = Json.MAPPER.readTree(eval.out());
        assertThat(report.get("runs").get(0).get("name").asString()).isEqualTo("configured");
        assertThat(report.get("runs").get(0).get("ndcg10").asDouble()).isEqualTo(1.0);
        Path saved = tmp.resolve("kb-report.json");
        Files.writeString(saved, eval.out());
        Run gate = run("eval", "--kb", "default", "--baseline", saved.toString());
        assertThat(gate.code()).as(gate.err()).isZero();
        assertThat(gate.out()).contains("configured").contains("nDCG@10");
        assertThat(gate.err()).contains("eval: baseline: configured").contains("+0.0000 nDCG@10");
        // A baseline whose judged queries are all others (judgments replaced): nothing compared is no pass.
        Path disjoint = tmp.resolve("kb-report-others.json");
        Files.writeString(disjoint, eval.out().replace("\"tea\"", "\"tea-old\"").replace("\"star\"",
                "\"star-old\""));
        Run blind = run("eval", "--kb", "default", "--baseline", disjoint.toString());
        assertThat(blind.code()).as(blind.err()).isEqualTo(Main.USAGE);
        assertThat(blind.err()).contains("shares no judged queries").contains("not a pass");
        // A report without its runs' per-query scores is refused before the evaluation, in one line.
        Files.writeString(tmp.resolve("no-runs.json"), "{\"knowledge_base\": \"default\", \"queries\": 1}");
        Run bare = run("eval", "--kb", "default", "--baseline", tmp.resolve("no-runs.json").toString());
        assertThat(bare.code()).as(bare.err()).isEqualTo(Main.USAGE);
        assertThat(bare.err()).contains("per_query_ndcg").doesNotContain("\tat ");
        Files.writeString(tmp.resolve("not-a-report.json"), "[1, 2]");
        assertThat(run("eval", "--kb", "default", "--baseline", tmp.resolve("not-a-report.json").toString()).code())
                .isEqualTo(Main.USAGE);
        // One evaluation at a time, and no option of another's ignored.
        Run both = run("eval", "--kb", "default", "--dataset", tmp.toString());
        assertThat(both.code()).isEqualTo(Main.USAGE);
        assertThat(both.err()).contains("give one of --kb, --dataset");
        Run stray = run("eval", "--kb", "default", "--out", tmp.resolve("kb.html").toString());
        assertThat(stray.code()).isEqualTo(Main.USAGE);
        assertThat(stray.err()).contains("--out goes with --dataset DIR, not --kb");
        Path notAFolder = Files.writeString(tmp.resolve("runs-file"), "x");
        Run runFiles = run("eval", "--dataset", tmp.toString(), "--run-files", notAFolder.toString());
        assertThat(runFiles.code()).isEqualTo(Main.USAGE);
        assertThat(runFiles.err()).contains("--run-files").doesNotContain("\tat ");
        assertThat(run("judgments", "add", "default", "--file", file.toString().replace("judged", "nope")).code())
                .isNotZero();
        assertThat(run("judgments", "clear", "default").out()).contains("deleted 2 judged queries from default");
    }

    @Test
    void re_ingesting_reports_everything_unchanged() {
        Run r = run("ingest", "--json", tmp.resolve("docs").toString());
        assertThat(r.code()).isZero();
        assertThat(Json.MAPPER.readTree(r.out()).get("report").get("unchanged").asInt()).isEqualTo(3);
    }

    @Test
    void bad_usage_and_bad_settings_exit_2_with_a_message() {
        Run empty = run("search", " ");
        assertThat(empty.code()).isEqualTo(Main.USAGE);
        assertThat(empty.err()).contains("polyrag: query is empty");
        Run setting = run("--set", "fusion.rrf.kk=3", "search", "tea");
        assertThat(setting.code()).isEqualTo(Main.USAGE);
        assertThat(setting.err()).contains("unknown setting 'fusion.rrf.kk'").contains("did you mean fusion.rrf.k?");
        Run modality = run("--set", "graph.enabled=false", "search", "--modalities", "graph", "tea");
        assertThat(modality.err()).contains("'graph' is not enabled");
        assertThat(run("search", "--modalities", "graph,nodes", "tea").err()).contains("unknown modality 'nodes'");
        assertThat(run("frobnicate").code()).isEqualTo(Main.USAGE);
    }

    @Test
    void a_data_directory_in_use_exits_3_and_says_what_to_do() {
        try (Polyrag held = Polyrag.open(Config.load(Map.of(), Map.of("data.dir", data.toString())))) {
            Run r = run("search", "tea");
            assertThat(r.code()).isEqualTo(Main.UNAVAILABLE);
            assertThat(r.err()).contains("is already in use").contains("POLYRAG_DATA_DIR");
        }
    }

    @Test
    void search_and_ask_meeting_a_running_server_ask_it_instead_of_failing() {
        try (Polyrag held = Polyrag.open(Config.load(Map.of(), Map.of("data.dir", data.toString())));
                io.polyrag.app.HttpFrontDoor server = io.polyrag.app.HttpFrontDoor.start(held, "127.0.0.1", 0,
                        1 << 20)) {
            ServedUrl.write(data, "http://127.0.0.1:" + server.port());
            try {
                Run search = run("search", "-k", "2", "tea");
                assertThat(search.code()).as(search.err()).isZero();
                assertThat(search.err()).contains("in use by the server at http://127.0.0.1:" + server.port())
                        .contains("asking it");
                assertThat(search.out()).contains(" 1. ").containsPattern("hits in \\d+ ms");
                Run json = run("search", "--json", "tea");
                assertThat(json.out()).contains("\"hits\"").contains("\"retrievers\"");
                Run ask = run("ask", "tea");
                assertThat(ask.code()).as(ask.err()).isZero();
                assertThat(ask.out()).contains("[1]");
                Run unknown = run("search", "--kb", "nope", "tea");
                assertThat(unknown.code()).isEqualTo(2);
                assertThat(unknown.err()).contains("answered 404").contains("nope");
                Run ingest = run("ingest", data.getParent().toString());
                assertThat(ingest.code()).isEqualTo(Main.UNAVAILABLE);
                assertThat(ingest.err()).contains("in use by the server at http://127.0.0.1:" + server.port())
                        .contains("/v1/ingest/files").contains("serve --watch");
                Run refused = run("search", "--no-server", "tea");
                assertThat(refused.code()).isEqualTo(Main.UNAVAILABLE);
                assertThat(refused.err()).contains("is already in use");
            } finally {
                ServedUrl.delete(data);
            }
        }
    }

    /** Through a server whose language model is down: the sources it found, then why there is no answer (exit 3). */
    @Test
    void ask_through_a_server_whose_model_is_down_prints_the_sources_found() {
        try (Polyrag held = Polyrag.open(Config.load(Map.of(), Map.of("data.dir", data.toString(), "llm.provider",
                "openai", "llm.base.url", "http://127.0.0.1:9/v1", "llm.model", "gone", "llm.max.retries", "0")));
                io.polyrag.app.HttpFrontDoor server = io.polyrag.app.HttpFrontDoor.start(held, "127.0.0.1", 0,
                        1 << 20)) {
            ServedUrl.write(data, "http://127.0.0.1:" + server.port());
            try {
                Run ask = run("ask", "matcha tea");
                assertThat(ask.code()).as(ask.err()).isEqualTo(Main.UNAVAILABLE);
                assertThat(ask.out()).contains("[1] Tea");
                assertThat(ask.err()).contains("no answer").contains("the sources above were found");
                Run json = run("ask", "--json", "matcha tea");
                assertThat(json.code()).isEqualTo(Main.UNAVAILABLE);
                assertThat(json.out()).contains("\"sources\"").contains("\"error\"");
            } finally {
                ServedUrl.delete(data);
            }
        }
    }

    @Test
    void config_prints_settings_with_their_origin_and_the_providers() {
        Run r = run("--set", "fusion.rrf.k=42", "config");
        assertThat(r.code()).isZero();
        assertThat(r.out()).contains("POLYRAG_FUSION_RRF_K").contains("42  [override]").contains("providers:")
                .contains("lucene").contains("bge-small-en-v1.5-q");
    }

    @org.junit.jupiter.params.ParameterizedTest
    @org.junit.jupiter.params.provider.ValueSource(strings = {"serve", "ingest", "search", "ask", "eval", "check",
        "config", "mcp", "smoke", "tune", "judgments"})
    void every_command_answers_help_with_its_usage(String command) {
        Run r = run(command, "--help");
        assertThat(r.code()).as(r.err()).isZero();
        assertThat(r.out()).startsWith("Usage: polyrag " + command);
    }

    /**
     * A glob is one option each, commas and all ({@code *.{md,txt}} split at its comma matched nothing), and a walk
     * of a folder holding the data directory leaves polyrag's own files out.
     */
    @Test
    void brace_globs_are_whole_and_a_walk_never_enters_the_data_directory() throws IOException {
        Path home = Files.createDirectories(tmp.resolve("home"));
        Files.writeString(home.resolve("a.md"), "# Kelp\n\nGiant kelp grows half a metre a day.");
        Files.writeString(home.resolve("b.txt"), "Sea otters wrap themselves in kelp to sleep.");
        Files.writeString(home.resolve("c.properties"), "colour=teal");
        Path own = home.resolve("data");
        List<String> args = List.of("--data-dir", own.toString());
        java.util.function.Function<String[], Run> at = more -> {
            StringWriter out = new StringWriter();
            StringWriter err = new StringWriter();
            List<String> all = new ArrayList<>(args);
            all.addAll(List.of(more));
            int code = Main.run(all.toArray(String[]::new), new PrintWriter(out, true), new PrintWriter(err, true));
            return new Run(code, out.toString(), err.toString());
        };
        Run first = at.apply(new String[] {"ingest", "--include", "*.{md,txt}", home.toString()});
        assertThat(first.code()).as(first.err()).isZero();
        assertThat(first.out()).contains("2 documents: 2 added");
        assertThat(Files.list(own).toList()).as("the data directory exists now, with polyrag's files").isNotEmpty();
        assertThat(PolyragCommand.globs(List.of("a\\,b.md", "*.{md,txt},x", "*.[,;]"))).as("escaped, braced, bracketed")
                .containsExactly("a\\,b.md", "*.{md,txt}", "x", "*.[,;]");
        Run commas = at.apply(new String[] {"ingest", "--include", "*.md,*.txt", home.toString()});
        assertThat(commas.out()).as("comma-separated, as before").contains("2 documents: 0 added");
        Run again = at.apply(new String[] {"ingest", home.toString()});
        assertThat(again.code()).as(again.err()).isZero();
        assertThat(again.out()).as("c.properties added; nothing of ./data").contains("3 documents: 1 added, 0 updated, "
                + "2 unchanged");
        assertThat(at.apply(new String[] {"ingest", "--include", "*.{md", home.toString()}).code())
                .as("an invalid glob is bad usage").isEqualTo(Main.USAGE);
    }

    /** A mistyped data directory is refused by the commands that read an index, and not created empty. */
    @Test
    void a_data_directory_without_an_index_is_bad_usage_for_search_ask_and_check_and_is_not_created() throws IOException {
        Path typo = tmp.resolve("dat");
        for (String[] cmd : List.of(new String[] {"search", "matcha"}, new String[] {"ask", "what is matcha?"},
                new String[] {"check"}, new String[] {"reindex", "--modality", "fulltext"},
                new String[] {"keys", "list"}, new String[] {"tenants", "quota", "acme", "--documents", "1000"},
                new String[] {"tenants", "usage"})) {
            List<String> args = new ArrayList<>(List.of("--data-dir", typo.toString()));
            args.addAll(List.of(cmd));
            StringWriter out = new StringWriter();
            StringWriter err = new StringWriter();
            int code = Main.run(args.toArray(String[]::new), new PrintWriter(out, true), new PrintWriter(err, true));
            assertThat(code).as(cmd[0] + ": " + err).isEqualTo(Main.USAGE);
            assertThat(err.toString()).contains("no index in " + typo + " (it does not exist)")
                    .contains("--data-dir").doesNotContain("\tat ");
            assertThat(typo).as(cmd[0]).doesNotExist();
        }
        Path empty = Files.createDirectories(tmp.resolve("empty-data"));
        StringWriter err = new StringWriter();
        int code = Main.run(new String[] {"--data-dir", empty.toString(), "search", "matcha"},
                new PrintWriter(new StringWriter(), true), new PrintWriter(err, true));
        assertThat(code).isEqualTo(Main.USAGE);
        assertThat(err.toString()).contains("it holds no catalog");
        assertThat(Files.list(empty).toList()).isEmpty();
    }

    /** A file given as the data directory is bad usage in one line, not an internal error with a stack trace. */
    @Test
    void a_file_as_the_data_directory_is_bad_usage_in_one_line() throws IOException {
        Path file = Files.writeString(tmp.resolve("notes.md"), "# Notes");
        StringWriter out = new StringWriter();
        StringWriter err = new StringWriter();
        int code = Main.run(new String[] {"--data-dir", file.toString(), "check"}, new PrintWriter(out, true),
                new PrintWriter(err, true));
        assertThat(code).as(err.toString()).isEqualTo(Main.USAGE);
        assertThat(err.toString()).contains("is not a folder").doesNotContain("\tat ");
        // Judgments in windows-1252, and a folder where a file is wanted: bad usage too, said in one line.
        Path latin = Files.write(tmp.resolve("latin1.json"), "{\"judgments\": [{\"query\": \"caf\u00e9\"}]}"
                .getBytes(java.nio.charset.Charset.forName("windows-1252")));
        Run notUtf8 = run("judgments", "add", "default", "--file", latin.toString());
        assertThat(notUtf8.code()).as(notUtf8.err()).isEqualTo(Main.USAGE);
        assertThat(notUtf8.err()).contains("not UTF-8").doesNotContain("\tat ");
        Run folder = run("judgments", "add", "default", "--file", tmp.toString());
        assertThat(folder.code()).as(folder.err()).isEqualTo(Main.USAGE);
        assertThat(folder.err()).doesNotContain("\tat ");
    }

    /** A damaged index is said with how to repair it, in a few lines: no stack trace burying them. */
    @Test
    void a_damaged_index_says_how_to_repair_it_without_a_stack_trace() throws IOException {
        Path data = tmp.resolve("damaged");
        Path doc = Files.writeString(tmp.resolve("lamp.md"), "# Lamp\n\nThe lamp is lit at dusk.");
        StringWriter out = new StringWriter();
        StringWriter err = new StringWriter();
        assertThat(Main.run(new String[] {"--data-dir", data.toString(), "--set", "vector.enabled=false", "ingest",
                doc.toString()}, new PrintWriter(out, true), new PrintWriter(err, true))).as(err.toString()).isZero();
        List<Path> segments;
        try (var files = Files.walk(data)) {
            segments = files.filter(f -> f.getFileName().toString().startsWith("segments_")).toList();
        }
        assertThat(segments).isNotEmpty();
        for (Path f : segments) {
            Files.write(f, new byte[64]);
        }
        err = new StringWriter();
        int code = Main.run(new String[] {"--data-dir", data.toString(), "--set", "vector.enabled=false", "search",
                "lamp"}, new PrintWriter(new StringWriter(), true), new PrintWriter(err, true));
        assertThat(code).as(err.toString()).isEqualTo(Main.INTERNAL);
        assertThat(err.toString()).contains("is damaged").doesNotContain("\tat ");
    }

    @Test
    void check_reports_every_store_consistent_and_exits_0() {
        Run r = run("check");
        assertThat(r.code()).as(r.err()).isZero();
        assertThat(r.out()).contains("catalog: 3 visible documents").containsPattern("vector: +ok +\\d+ records")
                .containsPattern("fulltext: +ok");
        Run json = run("check", "--json");
        assertThat(json.out()).contains("\"repaired\":false").contains("\"orphan_versions\":0");
    }

    /**
     * check runs no job workers: a job queued before it (after a crash, the first command run is often check) stays
     * queued for the server; check's own worker took it up and ran it while the report was taken.
     */
    @Test
    void check_and_ingest_leave_queued_jobs_to_the_server() {
        String job;
        try (Polyrag p = Polyrag.open(Config.load(Map.of(), Map.of("data.dir", data.toString(), "ingest.workers",
                "0")))) {
            job = p.admin().reindex("fulltext", false);
        }
        Run r = run("check");
        assertThat(r.code()).as(r.err()).isZero();
        // Nor does ingest, which ingests on its own thread (even --estimate took up the job and ran it).
        Run estimate = run("ingest", "--estimate", tmp.resolve("docs").toString());
        assertThat(estimate.code()).as(estimate.err()).isZero();
        Run ingest = run("ingest", tmp.resolve("docs").resolve("tea.md").toString());
        assertThat(ingest.code()).as(ingest.err()).isZero();
        // Nor do tune --show and --drop, which run no job of their own.
        assertThat(run("tune", "default", "--show").code()).as("never tuned").isEqualTo(Main.PARTIAL);
        assertThat(run("tune", "default", "--drop").code()).isZero();
        try (Polyrag p = Polyrag.open(Config.load(Map.of(), Map.of("data.dir", data.toString(), "ingest.workers",
                "0")))) {
            assertThat(p.admin().job(job).status()).isEqualTo(io.polyrag.core.model.JobStatus.QUEUED);
            p.jobs().cancel(job);
        }
    }

    @Test
    void keys_are_created_shown_once_listed_without_the_key_and_revoked() {
        Run created = run("keys", "create", "acme", "--name", "ci");
        assertThat(created.code()).as(created.err()).isZero();
        String key = created.out().strip().lines().reduce((x, y) -> y).orElseThrow();
        assertThat(key).startsWith("prk_").hasSize(63);
        assertThat(created.err()).as("the first key names what it leaves behind")
                .contains("warning: local mode's data (3 documents in").contains("--adopt-local");
        assertThat(run("keys", "list").out()).contains("belongs to no tenant");
        Run adopted = run("keys", "create", "acme", "--adopt-local");
        assertThat(adopted.code()).as(adopted.err()).isZero();
        assertThat(adopted.err()).contains("tenant acme holds local mode's data (3 documents in")
                .doesNotContain("warning");
        Run refused = run("keys", "create", "globex", "--adopt-local");
        assertThat(refused.code()).isEqualTo(2);
        assertThat(refused.err()).contains("belongs to tenant 'acme'");
        Run json = run("keys", "create", "acme", "--json");
        assertThat(json.out()).contains("\"tenant\":\"acme\"").contains("\"key\":\"prk_");
        String id = json.out().replaceAll("(?s).*\"id\":\"([0-9a-f]{16})\".*", "$1").strip();
        assertThat(json.out()).contains("\"local_owner\":true").contains("\"warnings\":[]");
        Run list = run("keys", "list");
        assertThat(list.out()).contains("acme").contains("active").contains(id).doesNotContain(key)
                .contains("local mode's data belongs to tenant acme");
        assertThat(run("keys", "create", "../x").code()).isEqualTo(2);
        assertThat(run("keys").code()).as("no subcommand is a usage error").isEqualTo(2);
        assertThat(run("keys", "revoke", "nope").code()).isEqualTo(2);
        assertThat(run("keys", "revoke", id).code()).isZero();
        list.out().lines().filter(l -> l.contains("active") && !l.contains(id)).map(l -> l.split(" ")[0])
                .forEach(k -> assertThat(run("keys", "revoke", k).code()).isZero());
        assertThat(run("keys", "list").out()).doesNotContain("active   2").contains("no active key: the server runs in "
                + "local mode (loopback only)");
        // With POLYRAG_HTTP_REQUIRE_KEYS there is no local mode: the server answers 401 until a key exists.
        assertThat(run("keys", "list", "--set", "http.require.keys=true").out()).contains("answers 401 until one "
                + "exists").doesNotContain("runs in local mode");
    }

    @Test
    void a_port_in_use_exits_2_naming_the_port_and_the_fix() throws IOException {
        try (java.net.ServerSocket taken = new java.net.ServerSocket(0, 1,
                java.net.InetAddress.getLoopbackAddress())) {
            Run r = run("serve", "--port", Integer.toString(taken.getLocalPort()));
            assertThat(r.code()).isEqualTo(Main.USAGE);
            assertThat(r.err()).contains("cannot listen on 127.0.0.1:" + taken.getLocalPort())
                    .contains("another program has that port").contains("--port");
        }
    }

    @Test
    void serve_on_an_address_this_machine_lacks_names_host_not_a_busy_port() {
        Run r = run("--set", "http.require.keys=true", "serve", "--host", "203.0.113.77", "--port", "0");
        assertThat(r.code()).as(r.err()).isEqualTo(Main.USAGE);
        assertThat(r.err()).contains("--host").doesNotContain("another program has that port");
    }

    @Test
    void eval_refuses_a_report_file_it_could_not_write_before_it_runs() {
        Run r = run("eval", "--dataset", tmp.resolve("no-dataset").toString(), "--out",
                tmp.resolve("no-folder").resolve("report.html").toString());
        assertThat(r.code()).isEqualTo(Main.USAGE);
        assertThat(r.err()).contains("--out").contains("name a file in an existing folder");
    }

    /**
     * A deployment's settings naming networked stores (here PostgreSQL at an address nothing listens on) are not
     * where an evaluation indexes its corpus: it would have written into and deleted from the production stores.
     */
    @Test
    void eval_of_a_dataset_indexes_into_embedded_stores_whatever_the_configured_backends() throws IOException {
        Path ds = Files.createDirectories(tmp.resolve("tiny-beir"));
        Files.writeString(ds.resolve("corpus.jsonl"), """
                {"_id": "d1", "title": "Pulsars", "text": "A pulsar is a rotating neutron star that emits beams."}
                {"_id": "d2", "title": "Tea", "text": "Matcha is powdered green tea whisked with hot water."}
                """);
        Files.writeString(ds.resolve("queries.jsonl"), "{\"_id\": \"q1\", \"text\": \"rotating neutron star\"}\n");
        Files.writeString(ds.resolve("qrels-test.tsv"), "query-id\tcorpus-id\tscore\nq1\td1\t1\n");
        // A blob folder replicas share, holding a queued job's staged upload from two hours ago: the evaluation's
        // empty catalog owned none of it, and its sweep deleted it.
        Path shared = Files.createDirectories(tmp.resolve("shared-blobs").resolve("job-0a1b2c-0"));
        Files.writeString(shared.resolve("content"), "a staged upload");
        Files.writeString(shared.resolve("meta.properties"), "name=notes.md\n");
        java.nio.file.attribute.FileTime old = java.nio.file.attribute.FileTime.from(java.time.Instant.now()
                .minus(java.time.Duration.ofHours(2)));
        for (Path f : List.of(shared.resolve("content"), shared.resolve("meta.properties"), shared)) {
            Files.setLastModifiedTime(f, old);
        }
        Path settings = tmp.resolve("networked.properties");
        Files.writeString(settings, "catalog.backend=postgres\npostgres.url=jdbc:postgresql://127.0.0.1:1/nowhere"
                + "?connectTimeout=1\nfulltext.backend=postgres\nblob.dir=" + shared.getParent() + "\n");
        Run r = run("--config", settings.toString(), "eval", "--dataset", ds.toString(), "--index",
                tmp.resolve("tiny-index").toString(), "--runs", "fulltext", "--json");
        assertThat(r.code()).as(r.err()).isEqualTo(Main.OK);
        assertThat(r.err()).contains("the evaluation's stores are embedded in its own folder, not the configured "
                + "catalog.backend=postgres, fulltext.backend=postgres, blob.dir=" + shared.getParent());
        assertThat(shared.resolve("content")).as("the shared folder's staged upload").exists();
        assertThat(io.polyrag.app.Json.MAPPER.readTree(r.out()).get("runs").get(0).get("ndcg@10").asDouble())
                .isEqualTo(1.0);
    }

    /** A store down or a disk full is exit 3 (try again later), as a server answers 503 or 507, not 4. */
    @Test
    void storage_outages_and_quotas_exit_as_unavailable() {
        assertThat(Main.exitCode(new io.polyrag.core.StoreException("down", new java.sql.SQLException("x", "08006"))))
                .isEqualTo(Main.UNAVAILABLE);
        assertThat(Main.exitCode(new io.polyrag.core.StoreException("no space left on device at /data")))
                .isEqualTo(Main.UNAVAILABLE);
        assertThat(Main.exitCode(new io.polyrag.core.QuotaExceededException("pending_jobs", 10, "too many")))
                .isEqualTo(Main.UNAVAILABLE);
        assertThat(Main.exitCode(new io.polyrag.core.QuotaExceededException("stored_mb", 0, "delete some")))
                .as("waits for deletions, not time").isEqualTo(Main.USAGE);
        assertThat(Main.exitCode(new io.polyrag.core.StoreException("a bug"))).isEqualTo(Main.INTERNAL);
        assertThat(Main.exitCode(new io.polyrag.core.ConflictException("a tuning is running", true)))
                .as("ends by itself").isEqualTo(Main.UNAVAILABLE);
        assertThat(Main.exitCode(new io.polyrag.core.ConflictException("exists already")))
                .isEqualTo(Main.USAGE);
        // --file with --qrels: one or the other, not the qrels dropped.
        assertThat(run("judgments", "add", "default", "--file", tmp.resolve("a.json").toString(), "--qrels",
                tmp.resolve("q.tsv").toString()).code()).isEqualTo(Main.USAGE);
    }

    /** serve --watch DIR --kb NAME for a folder a source keeps in another knowledge base: refused, not ignored. */
    @Test
    void serve_watch_with_another_knowledge_base_than_the_sources_is_refused() {
        var source = new io.polyrag.app.api.SourceInfo("notes", "filesystem", Map.of(), "default", 300, true, null,
                null, null, 0);
        org.assertj.core.api.Assertions.assertThatThrownBy(() -> ServeCommand.sameKnowledgeBase("work", source, tmp))
                .isInstanceOf(
                io.polyrag.core.ConflictException.class).hasMessageContaining("into knowledge base 'default', not "
                        + "'work'");
        ServeCommand.sameKnowledgeBase(null, source, tmp);
        ServeCommand.sameKnowledgeBase("default", source, tmp);
    }

    @Test
    void tune_json_prints_json_even_when_there_is_nothing_to_show() throws IOException {
        Run r = run("tune", "default", "--show", "--json");
        assertThat(r.code()).isEqualTo(Main.PARTIAL);
        assertThat(io.polyrag.app.Json.MAPPER.readTree(r.out()).get("status").asString()).isEqualTo("untuned");
    }

    /** Options that contradict each other are a usage error that does nothing, not one of them silently dropped. */
    @Test
    void contradicting_options_are_refused_and_change_nothing() throws IOException {
        assertThat(run("tenants", "quota", "acme", "--documents", "5").code()).isEqualTo(Main.OK);
        Run both = run("tenants", "quota", "acme", "--clear", "--documents", "7");
        assertThat(both.code()).isEqualTo(Main.USAGE);
        assertThat(both.err()).contains("--clear");
        assertThat(run("tenants", "quota", "acme").out()).as("the quota set before is kept").contains("documents 5");
        Run tune = run("tune", "default", "--drop", "--show");
        assertThat(tune.code()).isEqualTo(Main.USAGE);
        assertThat(tune.err()).contains("--drop").contains("--show");
        Files.writeString(Files.createDirectories(tmp.resolve("docs")).resolve("a.md"), "# A\n\nText.");
        Run estimate = run("ingest", tmp.resolve("docs").toString(), "--estimate", "--sync", "docs");
        assertThat(estimate.code()).isEqualTo(Main.USAGE);
        assertThat(estimate.err()).contains("--estimate").contains("--sync");
    }

    /** The bare command names every command a user may run (it named seven of fourteen), not the launcher's own. */
    @Test
    void the_bare_command_lists_the_commands() {
        Run r = run();
        assertThat(r.code()).isEqualTo(Main.USAGE);
        assertThat(r.err()).contains("reindex").contains("keys").contains("tune").doesNotContain("warm-up");
    }

    /**
     * reindex submits a job and waits for it: with the embedded catalog only this process can run it, so a
     * configuration that runs no workers (a serving-only replica's) no longer makes it wait for ever.
     */
    @Test
    void reindex_runs_its_job_where_the_configuration_runs_no_workers() {
        Run r = org.junit.jupiter.api.Assertions.assertTimeoutPreemptively(java.time.Duration.ofSeconds(120),
                () -> run("--set", "ingest.workers=0", "reindex", "--modality", "fulltext", "--all"));
        assertThat(r.code()).as(r.out() + r.err()).isEqualTo(Main.OK);
        assertThat(r.out()).contains("reindexed");
    }

    @Test
    void a_folder_ingested_with_sync_and_skip_graph_keeps_skipping_the_graph() throws IOException {
        Path other = tmp.resolve("skip-data");
        Path docs = Files.createDirectories(tmp.resolve("skip-docs"));
        Files.writeString(docs.resolve("a.md"), "# A\n\nAda Lovelace wrote notes.");
        StringWriter out = new StringWriter();
        StringWriter err = new StringWriter();
        int code = Main.run(new String[] {"--data-dir", other.toString(), "ingest", docs.toString(), "--sync", "s",
            "--skip-graph"}, new PrintWriter(out, true), new PrintWriter(err, true));
        assertThat(code).as(err.toString()).isEqualTo(Main.OK);
        // The same command again (a cron job, the README's command run twice): the source stays as it is.
        StringWriter again = new StringWriter();
        code = Main.run(new String[] {"--data-dir", other.toString(), "ingest", docs.toString(), "--sync", "s",
            "--skip-graph"}, new PrintWriter(new StringWriter(), true), new PrintWriter(again, true));
        assertThat(code).as(again.toString()).isEqualTo(Main.OK);
        assertThat(again.toString()).contains("already keeping");
        // The id taken by another folder: refused before that folder is read.
        Path elsewhere = Files.createDirectories(tmp.resolve("skip-other"));
        Files.writeString(elsewhere.resolve("b.md"), "# B\n\nCharles Babbage built engines.");
        StringWriter taken = new StringWriter();
        code = Main.run(new String[] {"--data-dir", other.toString(), "ingest", elsewhere.toString(), "--sync", "s"},
                new PrintWriter(new StringWriter(), true), new PrintWriter(taken, true));
        assertThat(code).as(taken.toString()).isNotEqualTo(Main.OK);
        assertThat(taken.toString()).contains("a source with id 's' exists");
        try (io.polyrag.app.Polyrag p = io.polyrag.app.Polyrag.open(io.polyrag.core.config.Config.load(Map.of(),
                Map.of("data.dir", other.toString(), "ingest.workers", "0")))) {
            assertThat(p.sources().list()).singleElement().satisfies(s -> assertThat(s.config())
                    .containsEntry("skip_graph", true));
            assertThat(p.documents().list(null, 0, 10)).as("the other folder was not read").hasSize(1);
        }
    }

    @Test
    void ask_with_a_model_that_does_not_answer_lists_the_sources_and_exits_3() throws IOException {
        int closed;
        try (java.net.ServerSocket s = new java.net.ServerSocket(0, 1, java.net.InetAddress.getLoopbackAddress())) {
            closed = s.getLocalPort();
        }
        Run r = run("--set", "llm.provider=openai", "--set", "llm.base.url=http://127.0.0.1:" + closed + "/v1",
                "--set", "llm.model=m", "--set", "llm.max.retries=0", "ask", "what", "is", "matcha?");
        assertThat(r.code()).as(r.err()).isEqualTo(Main.UNAVAILABLE);
        assertThat(r.out()).contains("[1] ").contains("tea.md");
        assertThat(r.err()).contains("polyrag: no answer: ").contains("the sources above were found")
                .doesNotContain("internal error");
    }

    @Test
    void the_start_up_example_sends_the_key_when_keys_are_on() {
        assertThat(ServeCommand.tryLine("http://127.0.0.1:9000", false))
                .isEqualTo("curl 'http://127.0.0.1:9000/v1/search?q=your+question'");
        assertThat(ServeCommand.tryLine("http://127.0.0.1:9000", true))
                .isEqualTo("curl -H 'Authorization: Bearer KEY' 'http://127.0.0.1:9000/v1/search?q=your+question'");
    }

    @Test
    void a_data_directory_in_use_names_the_address_its_server_answers_on() throws IOException {
        Path dir = Files.createDirectories(tmp.resolve("served"));
        assertThat(ServedUrl.read(dir, "127.0.0.1", 8080)).as("no server: the configured port")
                .isEqualTo("http://127.0.0.1:8080");
        assertThat(ServedUrl.read(dir, "0.0.0.0", 9001)).isEqualTo("http://127.0.0.1:9001");
        ServedUrl.write(dir, "http://127.0.0.1:18234");
        assertThat(ServedUrl.read(dir, "127.0.0.1", 8080)).as("the server's own port, not 8080")
                .isEqualTo("http://127.0.0.1:18234");
        ServedUrl.delete(dir);
        assertThat(ServedUrl.read(dir, "127.0.0.1", 8080)).isEqualTo("http://127.0.0.1:8080");
    }
}
