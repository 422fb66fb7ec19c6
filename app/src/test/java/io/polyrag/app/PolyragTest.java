package io.polyrag.app;

import io.polyrag.core.model.KnowledgeBase;
import io.polyrag.app.api.TextIngest;
import io.polyrag.app.api.PathIngest;
import io.polyrag.app.api.ReceivedFile;
import io.polyrag.app.api.PathIngestReport;
import io.polyrag.app.api.Limits;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.awaitility.Awaitility.await;

import io.polyrag.core.ConfigException;
import io.polyrag.core.InvalidInputException;
import io.polyrag.core.NotFoundException;
import io.polyrag.core.UnavailableException;
import io.polyrag.core.config.Config;
import io.polyrag.core.model.IngestReport;
import io.polyrag.core.model.JobInfo;
import io.polyrag.core.model.JobStatus;
import io.polyrag.core.model.Modality;
import io.polyrag.core.model.SearchHit;
import io.polyrag.core.model.SearchRequest;
import io.polyrag.core.model.SearchResponse;
import io.polyrag.core.port.ProgressListener;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.Set;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** The facade end to end on the embedded default stack: real parser, model, Lucene stores and H2 catalog. */
class PolyragTest {
    @TempDir
    Path tmp;

    private Polyrag polyrag;

    static Config config(Path dataDir, Map<String, String> more) {
        Map<String, String> m = new java.util.HashMap<>(more);
        m.put("data.dir", dataDir.toString());
        return Config.load(Map.of(), m);
    }

    @BeforeEach
    void open() {
        polyrag = Polyrag.open(config(tmp.resolve("data"), Map.of()));
    }

    @AfterEach
    void close() {
        if (polyrag != null) {
            polyrag.close();
        }
    }

    static Path corpus(Path dir) throws IOException {
        Files.createDirectories(dir.resolve("sub"));
        Files.writeString(dir.resolve("lighthouses.md"), """
                # Lighthouses

                ## History
                The Pharos of Alexandria was one of the seven wonders of the ancient world.

                ## Keepers
                Keepers trimmed the wicks every night and logged passing ships in a ledger.
                """);
        Files.writeString(dir.resolve("sub/bread.html"), """
                <html><head><title>Sourdough</title></head><body><nav>Home | Recipes</nav>
                <h1>Sourdough bread</h1><p>A levain of flour and water ferments for twelve hours before baking.</p>
                <table><tr><th>Ingredient</th><th>Grams</th></tr><tr><td>Rye flour</td><td>350</td></tr></table>
                </body></html>
                """);
        Files.writeString(dir.resolve("sub/comets.txt"), """
                Comets are icy bodies that release gas when they pass close to the Sun.

                Halley's comet returns roughly every seventy-six years.
                """);
        Files.writeString(dir.resolve("notes.bin"), "ignored: not an accepted type");
        return dir;
    }

    @Test
    void a_distinctive_phrase_finds_its_document_first_with_both_modalities_agreeing() throws IOException {
        PathIngestReport r = polyrag.ingest().paths(new PathIngest(List.of(corpus(tmp.resolve("c"))),
                null, List.of(), List.of()), ProgressListener.NONE);
        assertThat(r.report().added()).isEqualTo(3);
        assertThat(r.report().failed()).isZero();
        assertThat(r.skipped()).isEqualTo(1);
        SearchResponse s = polyrag.search().run(SearchRequest.of("Pharos of Alexandria wonders", 5));
        assertThat(s.degraded()).isEmpty();
        SearchHit top = s.hits().getFirst();
        assertThat(top.title()).isEqualTo("Lighthouses");
        assertThat(top.headingPath()).containsExactly("Lighthouses", "History");
        assertThat(top.uri()).startsWith("file:///").endsWith("/lighthouses.md");
        assertThat(top.sources()).containsKeys("vector", "fulltext");
        assertThat(top.sources().get("fulltext").rank()).isEqualTo(1);
        assertThat(polyrag.search().run(SearchRequest.of("how long does the levain ferment", 3)).hits().getFirst().title())
                .isEqualTo("Sourdough");
        assertThat(polyrag.search().run(SearchRequest.of("rye flour grams", 3)).hits().getFirst().text())
                .contains("Rye flour | 350");
    }

    @Test
    void an_onnx_cross_encoder_reorders_the_fused_hits_by_its_scores() throws IOException {
        Path c = corpus(tmp.resolve("c"));
        // Eight times the query's word "returns" and nothing else: the test model scores a pair by the passage's
        // tokens that occur in the query, so this outscores the comet text that fusion ranks first.
        Files.writeString(c.resolve("returns.txt"), "Returns returns returns returns returns returns returns returns.");
        polyrag.ingest().paths(new PathIngest(List.of(c), null, List.of(), List.of()), ProgressListener.NONE);
        String query = "Halley comet returns";
        assertThat(polyrag.search().run(SearchRequest.of(query, 4)).hits().getFirst().text()).contains("Halley");
        polyrag.close();
        Path model = io.polyrag.testing.TinyOnnxModels.install(tmp.resolve("cross-encoder"),
                io.polyrag.testing.TinyOnnxModels.Model.OVERLAP);
        polyrag = Polyrag.open(config(tmp.resolve("data"), Map.of("rerank.provider", "onnx", "rerank.model.dir",
                model.toString())));
        SearchResponse s = polyrag.search().run(SearchRequest.of(query, 4));
        assertThat(s.warnings()).isEmpty();
        assertThat(s.hits().getFirst().text()).startsWith("Returns returns");
        // the reranker reads what was indexed: the title (from the file name) and the text, 1 + 8 tokens
        assertThat(s.hits().getFirst().title()).isEqualTo("returns");
        assertThat(s.hits().getFirst().sources().get("rerank").score()).isEqualTo(9.0);
        assertThat(s.hits().get(1).text()).contains("Halley");
        List<Double> scores = s.hits().stream().map(h -> h.sources().get("rerank").score()).toList();
        assertThat(scores).isSortedAccordingTo(java.util.Comparator.reverseOrder());
        assertThat(s.hits().stream().map(h -> h.sources().get("rerank").rank()).toList()).containsExactly(1, 2, 3, 4);
    }

    @Test
    void semantic_search_finds_a_paraphrase_that_shares_no_words_with_the_text() throws IOException {
        polyrag.ingest().paths(new PathIngest(List.of(corpus(tmp.resolve("c"))), null, List.of(), List.of()),
                ProgressListener.NONE);
        SearchResponse s = polyrag.search().run(new SearchRequest("frozen space objects emitting vapour near our star", 3,
                List.of(), Set.of(Modality.VECTOR), null));
        assertThat(s.modalities()).containsExactly(Modality.VECTOR);
        assertThat(s.hits().getFirst().title()).isEqualTo("comets");
    }

    @Test
    void re_ingesting_a_folder_is_idempotent_and_a_changed_file_is_replaced() throws IOException {
        Path c = corpus(tmp.resolve("c"));
        PathIngest req = new PathIngest(List.of(c), KnowledgeBase.of("docs"), List.of(), List.of());
        polyrag.ingest().paths(req, ProgressListener.NONE);
        Map<String, Long> sizes = polyrag.admin().status().storeRecords();
        IngestReport again = polyrag.ingest().paths(req, ProgressListener.NONE).report();
        assertThat(again.unchanged()).isEqualTo(3);
        assertThat(polyrag.admin().status().storeRecords()).isEqualTo(sizes);
        Files.writeString(c.resolve("sub/comets.txt"), "Comets now only mention a zyxwvut ghost word.");
        IngestReport changed = polyrag.ingest().paths(req, ProgressListener.NONE).report();
        assertThat(changed.updated()).isEqualTo(1);
        assertThat(changed.unchanged()).isEqualTo(2);
        assertThat(polyrag.search().run(SearchRequest.of("Halley seventy-six years", 10)).hits())
                .noneMatch(h -> h.text().contains("Halley"));
        assertThat(polyrag.search().run(SearchRequest.of("zyxwvut", 3)).hits().getFirst().title()).isEqualTo("comets");
        assertThat(polyrag.admin().status().documents()).isEqualTo(3);
    }

    @Test
    void inline_text_is_a_document_keyed_by_its_content_unless_a_uri_is_given() {
        IngestReport r = polyrag.ingest().text(new TextIngest("Quokkas live on Rottnest Island.", "Quokka",
                null, "text", KnowledgeBase.of("animals")));
        assertThat(r.added()).isEqualTo(1);
        assertThat(polyrag.ingest().text(new TextIngest("Quokkas live on Rottnest Island.", "Quokka", null,
                "text", KnowledgeBase.of("animals"))).unchanged()).isEqualTo(1);
        SearchHit hit = polyrag.search().run(new SearchRequest("Rottnest", 3, List.of("animals"), Set.of(), null)).hits()
                .getFirst();
        assertThat(hit.title()).isEqualTo("Quokka");
        assertThat(hit.knowledgeBase()).isEqualTo("animals");
        assertThat(hit.uri()).startsWith("text:");
        // The same text under a new title is a change: "unchanged", it kept the old title.
        IngestReport retitled = polyrag.ingest().text(new TextIngest("Quokkas live on Rottnest Island.",
                "Quokka facts", null, "text", KnowledgeBase.of("animals")));
        assertThat(retitled.updated()).isEqualTo(1);
        assertThat(polyrag.search().run(new SearchRequest("Rottnest", 3, List.of("animals"), Set.of(), null)).hits()
                .getFirst().title()).isEqualTo("Quokka facts");
        polyrag.knowledgeBases().create("other", null);
        assertThat(polyrag.search().run(new SearchRequest("Rottnest", 3, List.of("other"), Set.of(), null)).hits()).isEmpty();
        assertThatThrownBy(() -> polyrag.ingest().text(new TextIngest(" ", null, null, null, null)))
                .isInstanceOf(InvalidInputException.class).hasMessageContaining("text is empty");
        assertThatThrownBy(() -> polyrag.ingest().text(new TextIngest("x", null, null, "pdf", null)))
                .hasMessageContaining("format 'pdf' is not supported");
    }

    @Test
    void a_text_with_a_nul_is_refused_and_an_untitled_text_is_named_by_its_first_line() {
        assertThatThrownBy(() -> polyrag.ingest().text(new TextIngest("bad\u0000bytes", null, null, null,
                null))).isInstanceOf(InvalidInputException.class)
                .hasMessage("text contains a NUL character at offset 3: send text only (a binary file goes to POST "
                        + "/v1/ingest/files)");
        polyrag.ingest().text(new TextIngest("\n## Wombat burrows\n\nWombats dig long burrows with their claws.",
                null, null, "markdown", KnowledgeBase.of("burrows")));
        polyrag.ingest().text(new TextIngest("  \nThe dingo howls at dusk across the plain.", null, null, null,
                KnowledgeBase.of("burrows")));
        assertThat(polyrag.documents().list(KnowledgeBase.of("burrows"), 0, 10)).extracting(io.polyrag.core.model.DocumentInfo::title)
                .containsExactlyInAnyOrder("Wombat burrows", "The dingo howls at dusk across the plain.");
        // A title given is the title, a slash in it included and over a Markdown heading; an untitled text's first
        // line is not cut at its last slash either.
        polyrag.ingest().text(new TextIngest("Raise the receive buffer first.", "TCP/IP tuning guide", null, null,
                KnowledgeBase.of("titles")));
        polyrag.ingest().text(new TextIngest("# Intro\n\nThe policy changes in the third quarter.", "Q3 policy", null,
                "markdown", KnowledgeBase.of("titles")));
        polyrag.ingest().text(new TextIngest("Minutes 2024/05/12\n\nThe board met at noon.", null, null, null,
                KnowledgeBase.of("titles")));
        assertThat(polyrag.documents().list(KnowledgeBase.of("titles"), 0, 10)).extracting(
                io.polyrag.core.model.DocumentInfo::title).containsExactlyInAnyOrder("TCP/IP tuning guide", "Q3 policy",
                "Minutes 2024/05/12");
        assertThat(Ingest.titleOf("x".repeat(100))).hasSize(81).endsWith("…");
    }

    @Test
    void an_upload_job_runs_in_the_background_and_reports_its_progress() throws IOException {
        Path staging = polyrag.uploads().newStagingDir();
        Files.writeString(staging.resolve("0"), "# Okapi\n\nThe okapi is a giraffid native to the Congo.");
        Files.write(staging.resolve("1"), new byte[] {0, 1, 2, 3, 0, 0});
        String id = polyrag.uploads().submit(KnowledgeBase.of("zoo"), staging, List.of(new ReceivedFile("okapi.md",
                staging.resolve("0")), new ReceivedFile("broken.txt", staging.resolve("1"))), false);
        JobInfo done = await().atMost(Duration.ofSeconds(60)).until(() -> polyrag.jobs().get(id), j -> j.status().finished());
        assertThat(done.status()).as("one of its two files failed").isEqualTo(JobStatus.PARTIAL);
        assertThat(done.error()).isEqualTo("1 of 2 files failed; the others were indexed (see errors)");
        assertThat(done.progress().added()).isEqualTo(1);
        assertThat(done.progress().failed()).isEqualTo(1);
        assertThat(done.progress().storesWritten()).containsExactly("fulltext", "vector");
        assertThat(done.progress().errors()).singleElement().satisfies(e -> assertThat(e.reason())
                .contains("broken.txt: looks like binary data"));
        assertThat(Files.exists(staging)).as("staging is cleaned up").isFalse();
        assertThat(polyrag.search().run(SearchRequest.of("okapi giraffid", 3)).hits().getFirst().uri())
                .isEqualTo("upload:okapi.md");
        assertThatThrownBy(() -> polyrag.jobs().get("nope")).isInstanceOf(NotFoundException.class);
    }

    @Test
    void a_second_open_of_the_same_data_directory_is_refused_clearly() throws Exception {
        assertThatThrownBy(() -> Polyrag.open(config(tmp.resolve("data"), Map.of())))
                .isInstanceOf(UnavailableException.class).hasMessageContaining("is already in use")
                .hasMessageContaining("by process " + ProcessHandle.current().pid());
        // The refused open did not release this process's lock: another process is still kept out.
        a_second_process_on_the_same_data_directory_is_refused_clearly();
    }

    @Test
    void a_second_process_on_the_same_data_directory_is_refused_clearly() throws Exception {
        Path dir = tmp.resolve("data");
        Process p = new ProcessBuilder(Path.of(System.getProperty("java.home"), "bin", "java").toString(), "-cp",
                System.getProperty("java.class.path"), LockProbe.class.getName(), dir.toString())
                .redirectErrorStream(true).start();
        String out = new String(p.getInputStream().readAllBytes());
        assertThat(p.waitFor()).isEqualTo(3);
        assertThat(out).contains("is already in use");
    }

    /** Run in a child JVM by the test above: tries to lock the directory and reports how it went by exit code. */
    public static final class LockProbe {
        public static void main(String[] args) {
            try (DataDirLock lock = DataDirLock.acquire(Path.of(args[0]))) {
                System.exit(0);
            } catch (UnavailableException e) {
                System.out.println(e.getMessage());
                System.exit(3);
            }
        }
    }

    @Test
    void with_the_vector_modality_off_no_model_is_loaded_and_full_text_still_answers() {
        polyrag.close();
        polyrag = Polyrag.open(config(tmp.resolve("ft-only"), Map.of("vector.enabled", "false", "graph.enabled", "false",
                "rdf.enabled", "false")));
        assertThat(polyrag.admin().status().embeddingModel()).isNull();
        assertThat(polyrag.admin().status().modalities()).containsExactly(Modality.FULLTEXT);
        polyrag.ingest().text(new TextIngest("Axolotls regrow their limbs.", "Axolotl", null, null, null));
        SearchResponse s = polyrag.search().run(SearchRequest.of("axolotl limbs", 3));
        assertThat(s.hits().getFirst().sources()).containsOnlyKeys("fulltext");
        assertThatThrownBy(() -> polyrag.search().run(new SearchRequest("x", 3, List.of(), Set.of(Modality.VECTOR), null)))
                .hasMessageContaining("'vector' is not enabled");
    }

    @Test
    void an_unknown_backend_fails_at_start_listing_the_available_ones_and_frees_the_directory() {
        polyrag.close();
        polyrag = null;
        Path dir = tmp.resolve("bad");
        assertThatThrownBy(() -> Polyrag.open(config(dir, Map.of("fulltext.backend", "elasticsearch"))))
                .isInstanceOf(ConfigException.class)
                // This module's tests add a "pausing" provider (the crash tests') after the real ones.
                .hasMessageStartingWith("POLYRAG_FULLTEXT_BACKEND='elasticsearch' names no full text store provider: "
                        + "available are").hasMessageContaining("lucene").hasMessageContaining("opensearch")
                .hasMessageContaining("postgres");
        assertThatThrownBy(() -> Polyrag.open(config(tmp.resolve("bad2"), Map.of("fulltext.backend", "opensearch"))))
                .isInstanceOf(ConfigException.class).hasMessageContaining("POLYRAG_OPENSEARCH_URL must be");
        Polyrag.open(config(dir, Map.of())).close();
    }

    @Test
    void an_unknown_model_provider_or_a_missing_model_setting_fails_at_start_with_the_fix() {
        polyrag.close();
        polyrag = null;
        assertThatThrownBy(() -> Polyrag.open(config(tmp.resolve("llm"), Map.of("llm.provider", "gemini"))))
                .isInstanceOf(ConfigException.class).hasMessageContaining("POLYRAG_LLM_PROVIDER='gemini'")
                .hasMessageContaining("anthropic, openai");
        assertThatThrownBy(() -> Polyrag.open(config(tmp.resolve("llm"), Map.of("llm.provider", "openai"))))
                .isInstanceOf(ConfigException.class).hasMessageContaining("POLYRAG_LLM_BASE_URL is not set");
        assertThatThrownBy(() -> Polyrag.open(config(tmp.resolve("llm"), Map.of("rerank.provider", "llm"))))
                .hasMessageContaining("POLYRAG_RERANK_PROVIDER=llm needs a language model");
        assertThatThrownBy(() -> Polyrag.open(config(tmp.resolve("llm"), Map.of("rerank.provider", "colbert"))))
                .hasMessageContaining("available are http, onnx");
    }

    @Test
    void a_read_naming_a_knowledge_base_that_does_not_exist_is_a_404_naming_it() {
        polyrag.ingest().text(new TextIngest("The kakapo is a flightless parrot.", "Kakapo", null, null,
                KnowledgeBase.of("birds")));
        assertThat(polyrag.search().run(new SearchRequest("kakapo", 3, List.of("birds"), Set.of(), null)).hits())
                .isNotEmpty();
        assertThatThrownBy(() -> polyrag.search().run(new SearchRequest("kakapo", 3, List.of("brids"), Set.of(),
                null))).isInstanceOf(NotFoundException.class).hasMessageContaining("no knowledge base 'brids'")
                .hasMessageContaining("GET /v1/knowledge-bases");
        assertThatThrownBy(() -> polyrag.documents().list(KnowledgeBase.of("brids"), 0, 10))
                .isInstanceOf(NotFoundException.class);
        // The default knowledge base always exists, empty or not.
        assertThat(polyrag.search().run(new SearchRequest("kakapo", 3, List.of("default"), Set.of(), null)).hits())
                .isEmpty();
    }

    @Test
    void a_search_while_documents_wait_to_be_indexed_says_so() throws IOException {
        polyrag.close();
        // No worker: the job stays queued, as it would behind a long one.
        polyrag = Polyrag.open(config(tmp.resolve("queued"), Map.of("ingest.workers", "0")));
        assertThat(polyrag.search().run(SearchRequest.of("okapi", 3)).warnings()).isEmpty();
        Path staging = polyrag.uploads().newStagingDir();
        Files.writeString(staging.resolve("0"), "# Okapi\n\nThe okapi is a giraffid native to the Congo.");
        polyrag.uploads().submit(KnowledgeBase.of("zoo"), staging, List.of(new ReceivedFile("okapi.md",
                staging.resolve("0"))), false);
        assertThat(polyrag.search().run(SearchRequest.of("okapi", 3)).warnings()).singleElement().asString()
                .contains("still being indexed").contains("1 ingest job queued or running");
        // A search of another knowledge base is not held up by it.
        assertThat(polyrag.search().run(new SearchRequest("okapi", 3, List.of("default"), Set.of(), null))
                .warnings()).isEmpty();
    }

    @Test
    void deleting_a_knowledge_base_a_source_feeds_is_refused_unless_forced_and_then_the_source_goes_too()
            throws IOException {
        Path root = Files.createDirectories(tmp.resolve("fed"));
        Files.writeString(root.resolve("tides.md"), "# Tides\n\nSpring tides follow the full moon.");
        polyrag.close();
        polyrag = Polyrag.open(config(tmp.resolve("fed-data"), Map.of("sync.allowed.roots", root.toString(),
                "sync.watch", "false")));
        String job = polyrag.sources().register(new io.polyrag.app.api.SourceRegistration("shore", "filesystem",
                Map.of("root", root.toString()), "coast", 3600, true)).jobId();
        await().atMost(Duration.ofSeconds(60)).until(() -> polyrag.jobs().get(job).status().finished());
        assertThatThrownBy(() -> polyrag.knowledgeBases().delete("coast"))
                .isInstanceOf(io.polyrag.core.ConflictException.class).hasMessageContaining("sync source shore")
                .hasMessageContaining("force=true");
        assertThat(polyrag.knowledgeBases().get("coast").documents()).isEqualTo(1);
        assertThat(polyrag.knowledgeBases().delete("coast", true)).isEqualTo(1);
        assertThat(polyrag.sources().list()).isEmpty();
        assertThat(polyrag.knowledgeBases().list()).extracting(io.polyrag.core.model.KnowledgeBaseInfo::name)
                .doesNotContain("coast");
    }

    /**
     * A forced delete removes the sources first, each stopping its sync; a sync is also found by the knowledge base
     * recorded with the job (read through the removed source, a running sync went on and brought the knowledge base
     * back).
     */
    @Test
    void a_forced_delete_cancels_the_sync_that_would_write_into_the_knowledge_base() throws IOException {
        Path root = Files.createDirectories(tmp.resolve("queued-fed"));
        Files.writeString(root.resolve("tides.md"), "# Tides\n\nSpring tides follow the full moon.");
        polyrag.close();
        polyrag = Polyrag.open(config(tmp.resolve("queued-fed-data"), Map.of("sync.allowed.roots", root.toString(),
                "sync.watch", "false", "ingest.workers", "0")));
        polyrag.knowledgeBases().create("coast", null);
        String job = polyrag.sources().register(new io.polyrag.app.api.SourceRegistration("shore", "filesystem",
                Map.of("root", root.toString()), "coast", 3600, true)).jobId();
        assertThat(polyrag.jobs().get(job).status()).isEqualTo(JobStatus.QUEUED);
        assertThat(polyrag.sources().sync("shore")).as("a sync already queued answers; no second one runs beside it")
                .isEqualTo(job);
        polyrag.knowledgeBases().delete("coast", true);
        assertThat(polyrag.jobs().get(job).status()).isEqualTo(JobStatus.CANCELED);
        assertThat(polyrag.sources().list()).isEmpty();

        // Deleting a source alone stops its sync too, which would otherwise index what the delete leaves behind.
        String again = polyrag.sources().register(new io.polyrag.app.api.SourceRegistration("shore", "filesystem",
                Map.of("root", root.toString()), "reef", 3600, true)).jobId();
        assertThat(polyrag.jobs().get(again).status()).isEqualTo(JobStatus.QUEUED);
        polyrag.sources().delete("shore", true);
        assertThat(polyrag.jobs().get(again).status()).isEqualTo(JobStatus.CANCELED);
    }

    /** A knowledge base's delete takes its documents' stored originals with them (they were left behind). */
    @Test
    void deleting_a_knowledge_base_deletes_its_documents_originals() throws IOException {
        Path staging = polyrag.uploads().newStagingDir();
        Files.writeString(staging.resolve("0"), "# Okapi\n\nThe okapi is a giraffid native to the Congo.");
        String job = polyrag.uploads().submit(KnowledgeBase.of("archive"), staging, List.of(new ReceivedFile(
                "okapi.md", staging.resolve("0"))), false);
        await().atMost(Duration.ofSeconds(60)).until(() -> polyrag.jobs().get(job).status().finished());
        String id = polyrag.documents().list(null, 0, 100).stream().filter(d -> d.uri().equals("upload:okapi.md"))
                .findFirst().orElseThrow().id();
        assertThat(polyrag.components().blobs.get(id)).isPresent();
        polyrag.knowledgeBases().delete("archive");
        assertThat(polyrag.components().blobs.get(id)).isEmpty();
    }

    /**
     * A first version still being written by a writer that is no job (a text ingest, an agent's tool call) is given
     * up by the knowledge base's delete: published afterwards it landed in the dropped knowledge base, and a create of
     * the same name brought it back.
     */
    @Test
    void deleting_a_knowledge_base_gives_up_a_first_version_being_written_into_it() {
        polyrag.knowledgeBases().create("tide", null);
        String kb = KnowledgeBase.of("tide").storageName();
        var chunk = io.polyrag.core.model.Chunk.builder("pending-doc", 1, 0).text("Neap tides follow the quarter "
                + "moons.").offsets(0, 34).tokenCount(6).embeddingModel("m").build();
        var catalog = polyrag.components().catalog;
        catalog.stage(new io.polyrag.core.model.DocumentDraft("pending-doc", kb, "text:tides", "Tides", "text/plain",
                "h1", 34, List.of(chunk)), 1);
        assertThat(polyrag.knowledgeBases().delete("tide")).isEqualTo(1);
        assertThatThrownBy(() -> catalog.publish(new io.polyrag.core.model.DocumentVersion("pending-doc", 1)))
                .hasMessageContaining("was deleted");
        polyrag.knowledgeBases().create("tide", null);
        assertThat(polyrag.knowledgeBases().get("tide").documents()).isZero();
        assertThat(catalog.document("pending-doc")).isEmpty();
    }

    @Test
    void deleting_a_knowledge_base_cancels_the_ingest_that_would_write_into_it() throws IOException {
        polyrag.close();
        // No worker: the upload waits in the queue, as behind a long job; a worker started after the delete must not
        // bring the knowledge base back.
        polyrag = Polyrag.open(config(tmp.resolve("kb-delete"), Map.of("ingest.workers", "0")));
        polyrag.knowledgeBases().create("zoo", null);
        Path staging = polyrag.uploads().newStagingDir();
        Files.writeString(staging.resolve("0"), "# Okapi\n\nThe okapi is a giraffid native to the Congo.");
        String id = polyrag.uploads().submit(KnowledgeBase.of("zoo"), staging, List.of(new ReceivedFile("okapi.md",
                staging.resolve("0"))), false);
        polyrag.knowledgeBases().delete("zoo");
        assertThat(polyrag.jobs().get(id).status()).isEqualTo(JobStatus.CANCELED);
        polyrag.close();
        polyrag = Polyrag.open(config(tmp.resolve("kb-delete"), Map.of()));
        assertThat(polyrag.knowledgeBases().list()).extracting(io.polyrag.core.model.KnowledgeBaseInfo::name)
                .doesNotContain("zoo");
        assertThat(polyrag.jobs().get(id).status()).isEqualTo(JobStatus.CANCELED);
    }

    @Test
    void deleting_a_knowledge_base_while_an_ingest_writes_into_it_stops_the_ingest_and_stays_deleted()
            throws Exception {
        Path staging = polyrag.uploads().newStagingDir();
        List<ReceivedFile> files = new java.util.ArrayList<>();
        for (int i = 0; i < 300; i++) {
            Path f = staging.resolve(Integer.toString(i));
            Files.writeString(f, "# Note " + i + "\n\nThe harbour log entry number " + i + " records a calm sea.");
            files.add(new ReceivedFile("note-" + i + ".md", f));
        }
        String id = polyrag.uploads().submit(KnowledgeBase.of("bulk"), staging, files, false);
        await().atMost(Duration.ofSeconds(60)).until(() -> polyrag.jobs().get(id).progress().processed() > 0);
        assertThat(polyrag.jobs().get(id).status()).isEqualTo(JobStatus.RUNNING);
        polyrag.knowledgeBases().delete("bulk");
        assertThat(polyrag.jobs().get(id).status()).isEqualTo(JobStatus.CANCELED);
        Thread.sleep(1000);
        assertThat(polyrag.knowledgeBases().list()).extracting(io.polyrag.core.model.KnowledgeBaseInfo::name)
                .as("nothing written after the delete brings it back").doesNotContain("bulk");
        assertThat(polyrag.documents().list(KnowledgeBase.of("default"), 0, 10)).isEmpty();
    }

    @Test
    void with_the_graph_arms_off_the_graph_api_says_how_to_turn_them_on() {
        assertThat(polyrag.admin().status().modalities()).as("off by default").containsExactly(Modality.VECTOR,
                Modality.FULLTEXT);
        assertThatThrownBy(() -> polyrag.graph().find("curie", 10)).isInstanceOf(InvalidInputException.class)
                .hasMessageContaining("POLYRAG_GRAPH_ENABLED=true");
        polyrag.close();
        // One setting turns both arms on; the RDF arm can still be set apart.
        polyrag = Polyrag.open(config(tmp.resolve("graph"), Map.of("graph.enabled", "true")));
        assertThat(polyrag.admin().status().modalities()).containsExactly(Modality.VECTOR, Modality.FULLTEXT,
                Modality.GRAPH, Modality.RDF);
        polyrag.close();
        polyrag = Polyrag.open(config(tmp.resolve("graph-only"), Map.of("graph.enabled", "true", "rdf.enabled",
                "false")));
        assertThat(polyrag.admin().status().modalities()).containsExactly(Modality.VECTOR, Modality.FULLTEXT,
                Modality.GRAPH);
    }

    @Test
    void the_same_content_under_two_names_is_indexed_once_and_the_copy_is_listed_as_a_duplicate(
            @org.junit.jupiter.api.io.TempDir Path files) throws IOException {
        Files.writeString(files.resolve("guide.md"), "# Guide\n\nThe ferry leaves the north pier at dawn.");
        Files.writeString(files.resolve("guide-copy.md"), "# Guide\n\nThe ferry leaves the north pier at dawn.");
        PathIngestReport r = polyrag.ingest().paths(new PathIngest(List.of(files), KnowledgeBase.of("ferries"), List.of(),
                List.of(), false), io.polyrag.core.port.ProgressListener.NONE);
        assertThat(r.report().added()).isEqualTo(1);
        assertThat(r.report().unchanged()).isEqualTo(1);
        assertThat(r.report().indexed()).extracting(io.polyrag.core.model.IndexedDocument::outcome)
                .hasSize(2).contains("added").anySatisfy(o -> assertThat(o).startsWith("duplicate of file:")
                        .endsWith(".md"));
        assertThat(r.report().warnings()).singleElement().asString()
                .contains("1 input was left out as duplicates of documents indexed under another name")
                .contains("POLYRAG_INGEST_DUPLICATES=allow");
        assertThat(polyrag.documents().list(KnowledgeBase.of("ferries"), 0, 10)).hasSize(1);
        PathIngestReport again = polyrag.ingest().paths(new PathIngest(List.of(files), KnowledgeBase.of("ferries"),
                List.of(), List.of(), false), io.polyrag.core.port.ProgressListener.NONE);
        assertThat(again.report().unchanged()).isEqualTo(2);
        assertThat(polyrag.documents().list(KnowledgeBase.of("ferries"), 0, 10)).hasSize(1);
        // A document changed into a copy of another is an update, not a duplicate left out: skipped, its old text
        // stayed searchable under its name.
        Path schedule = files.resolve("schedule.md");
        Files.writeString(schedule, "# Schedule\n\nThe night bus leaves the depot at midnight.");
        ingestFolder(files);
        Files.writeString(schedule, "# Guide\n\nThe ferry leaves the north pier at dawn.");
        PathIngestReport changed = ingestFolder(files);
        assertThat(changed.report().indexed()).filteredOn(d -> d.uri().endsWith("schedule.md"))
                .extracting(io.polyrag.core.model.IndexedDocument::outcome).containsExactly("updated");
        assertThat(polyrag.search().run(io.polyrag.core.model.SearchRequest.of("night bus depot midnight", 5)).hits())
                .noneSatisfy(h -> assertThat(h.text()).contains("night bus"));
    }

    private PathIngestReport ingestFolder(Path files) {
        return polyrag.ingest().paths(new PathIngest(List.of(files), KnowledgeBase.of("ferries"), List.of(), List.of(),
                false), io.polyrag.core.port.ProgressListener.NONE);
    }

    @Test
    void the_facade_enforces_its_limits_for_every_front_door() {
        assertThatThrownBy(() -> polyrag.uploads().ingestStaged(java.util.Collections.nCopies(Limits.MAX_STAGED_IDS + 1,
                "x"), null, false)).isInstanceOf(InvalidInputException.class)
                .hasMessageContaining("at most 10000 staged files per ingest, got 10001");
        assertThatThrownBy(() -> polyrag.documents().list(null, 0, Limits.MAX_PAGE + 1))
                .hasMessageContaining("limit in [1, 1000]");
        assertThatThrownBy(() -> polyrag.ingest().text(new TextIngest("x", null, "u:" + "x".repeat(
                Limits.MAX_URI), null, null))).hasMessageContaining("uri must be at most 2048 characters");
    }
}
