package io.polyrag.ingest;

import static org.assertj.core.api.Assertions.assertThat;

import io.polyrag.core.StoreException;
import io.polyrag.core.config.Config;
import io.polyrag.core.model.Chunk;
import io.polyrag.core.model.ChunkKind;
import io.polyrag.core.model.DocumentDraft;
import io.polyrag.core.model.DocumentVersion;
import io.polyrag.core.model.Ids;
import io.polyrag.core.model.IngestReport;
import io.polyrag.core.model.Modality;
import io.polyrag.core.model.SearchScope;
import io.polyrag.core.model.StoreHit;
import io.polyrag.core.model.StoreRecord;
import io.polyrag.core.port.Embedder;
import io.polyrag.core.port.FullTextStore;
import io.polyrag.core.port.VectorStore;
import io.polyrag.model.onnx.OnnxEmbedderProvider;
import io.polyrag.parsers.TextFormatsParser;
import io.polyrag.store.catalog.H2CatalogProvider;
import io.polyrag.store.catalog.JdbcCatalog;
import io.polyrag.store.lucene.LuceneFullTextStore;
import io.polyrag.store.lucene.LuceneVectorStore;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.util.Collection;
import java.util.List;
import java.util.Map;
import java.util.Random;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** The pipeline over the real embedded stores, catalog, parser and embedding model. */
class IngestPipelineTest {
    private static Embedder embedder;

    @TempDir
    Path dir;

    private JdbcCatalog catalog;
    private VectorStore vectors;
    private FullTextStore fulltext;

    @BeforeAll
    static void loadModel() {
        embedder = OnnxEmbedderProvider.open(Config.defaults(Map.of()));
    }

    @AfterAll
    static void closeModel() {
        embedder.close();
    }

    @BeforeEach
    void open() {
        catalog = H2CatalogProvider.open(dir.resolve("catalog"));
        vectors = new LuceneVectorStore(dir.resolve("vector"), embedder.dimension(), embedder.modelId());
        fulltext = new LuceneFullTextStore(dir.resolve("fulltext"), 0.9, 0.4);
    }

    @AfterEach
    void close() {
        vectors.close();
        fulltext.close();
        catalog.close();
    }

    private IngestPipeline pipeline(FullTextStore ft) {
        return pipeline(embedder, ft, new IngestPipeline.Options(2, 10_000, "test"));
    }

    /** The real parser, chunker and vector store, with this embedder, full-text store and options. */
    private IngestPipeline pipeline(Embedder model, FullTextStore ft, IngestPipeline.Options options) {
        return new IngestPipeline(catalog, new TextFormatsParser(), new StructuredChunker(embedder.tokenCounter(), 64,
                8), model, new StoreSet(Map.of(Modality.VECTOR, vectors, Modality.FULLTEXT, ft)), options);
    }

    private static String longDoc(String topic, int paragraphs) {
        StringBuilder sb = new StringBuilder("# " + topic + "\n\n");
        for (int i = 0; i < paragraphs; i++) {
            sb.append("Paragraph ").append(i).append(" discusses ").append(topic)
                    .append(" in some depth, with several sentences. It adds detail number ").append(i)
                    .append(". It ends here.\n\n");
        }
        return sb.toString();
    }

    private List<String> fulltextHits(String query) {
        return fulltext.search(query, SearchScope.ALL, 50).stream().map(StoreHit::chunkId).toList();
    }

    /**
     * A document cut into three passages or more that fits the model's window is embedded whole too, from its
     * passages' texts joined (the heading they repeat once); one of a single passage, or longer than the window, is
     * not. A back-fill of the vector store writes the same whole vectors again.
     */
    @Test
    void a_document_of_small_passages_that_fits_the_window_is_embedded_whole_too() {
        IngestPipeline p = pipeline(fulltext);
        IngestReport r = p.ingest(List.of(
                IngestInput.ofText("file:///a.md", "a.md", longDoc("volcanoes", 6)),
                IngestInput.ofText("file:///b.md", "b.md", "# Tides\n\nThe moon pulls the oceans."),
                IngestInput.ofText("file:///c.md", "c.md", longDoc("glaciers", 40))), "kb", x -> { });
        assertThat(r.added()).isEqualTo(3);
        Map<String, DocumentVersion> byUri = new java.util.HashMap<>();
        catalog.documents(SearchScope.ALL, 0, 10).forEach(d -> byUri.put(d.uri(), new DocumentVersion(d.id(),
                d.visibleVersion())));
        DocumentVersion a = byUri.get("file:///a.md");
        List<Chunk> chunks = catalog.chunks(a.documentId(), a.version(), 0, Integer.MAX_VALUE);
        assertThat(chunks).as("volcanoes is cut into small passages").hasSizeGreaterThanOrEqualTo(3);
        assertThat(catalog.chunks(byUri.get("file:///c.md").documentId(), byUri.get("file:///c.md").version(), 0,
                Integer.MAX_VALUE)).as("glaciers into many").hasSizeGreaterThan(10);

        String title = catalog.document(a.documentId()).orElseThrow().title();
        String text = io.polyrag.core.model.WholeText.join(chunks.stream().map(c -> c.indexText(title)).toList());
        assertThat(text).as("all of it").contains("Paragraph 0 ", "Paragraph 5 ");
        float[] expected = embedder.embedPassages(List.of(text)).getFirst();
        Map<DocumentVersion, Double> wholes = vectors.wholeCosines(expected, byUri.values());
        assertThat(wholes).as("only the document that fits the window and has three passages or more")
                .containsOnlyKeys(a);
        assertThat(wholes.get(a)).as("embedded from its passages joined").isCloseTo(1.0,
                org.assertj.core.data.Offset.offset(1e-4));

        vectors.delete(List.of(a));
        assertThat(vectors.wholeCosines(expected, List.of(a))).isEmpty();
        new StoreCheck(p).backfill(Modality.VECTOR, new StoreCheck.Progress() {
            @Override
            public void report(int done, int total) {
            }

            @Override
            public boolean canceled() {
                return false;
            }
        });
        assertThat(vectors.wholeCosines(expected, byUri.values())).as("a back-fill writes it again")
                .containsOnlyKeys(a);
        assertThat(vectors.wholeCosines(expected, List.of(a)).get(a)).isCloseTo(1.0,
                org.assertj.core.data.Offset.offset(1e-4));
    }

    /**
     * A document replaced while a check lists the stores is not an orphan: its old version was visible when the check
     * began, and the write that replaced it purges it. Taken for one, a check run beside ingests reported the stores
     * as differing.
     */
    @Test
    void a_version_replaced_while_the_stores_are_listed_is_not_an_orphan() {
        boolean[] replaced = {false};
        IngestPipeline[] p = new IngestPipeline[1];
        FullTextStore listing = (FullTextStore) java.lang.reflect.Proxy.newProxyInstance(
                FullTextStore.class.getClassLoader(), new Class<?>[] {FullTextStore.class}, (proxy, method, args) -> {
                    if (method.getName().equals("versions") && !replaced[0]) {
                        // The vector store was listed already (it comes first): the document changes now.
                        replaced[0] = true;
                        p[0].ingest(List.of(IngestInput.ofText("file:///b.md", "b.md", "# Tides\n\nThe sun pulls "
                                + "the oceans too.")), "kb", x -> { });
                    }
                    try {
                        return method.invoke(fulltext, args);
                    } catch (java.lang.reflect.InvocationTargetException e) {
                        throw e.getCause();
                    }
                });
        p[0] = pipeline(listing);
        p[0].ingest(List.of(IngestInput.ofText("file:///b.md", "b.md", "# Tides\n\nThe moon pulls the oceans.")),
                "kb", x -> { });
        io.polyrag.core.model.CheckReport r = new StoreCheck(p[0]).run(StoreCheck.Repair.NONE);
        assertThat(replaced[0]).isTrue();
        assertThat(r.stores()).allSatisfy(s -> assertThat(s.orphanVersions()).as(s.toString()).isZero());
        assertThat(r.consistent()).isTrue();
    }

    /**
     * Records of a version this catalog never made (another deployment's, sharing the store) are not orphans: left
     * alone, while an orphan of a version it made and replaced is removed. Both were deleted at every start.
     */
    @Test
    void records_of_versions_this_catalog_never_made_are_left_alone() {
        IngestPipeline p = pipeline(fulltext);
        p.ingest(List.of(IngestInput.ofText("file:///b.md", "b.md", "# Tides\n\nThe moon pulls the oceans.")), "kb",
                x -> { });
        p.ingest(List.of(IngestInput.ofText("file:///b.md", "b.md", "# Tides\n\nThe sun pulls the oceans too.")), "kb",
                x -> { });
        String id = catalog.documents(SearchScope.ALL, 0, 10).getFirst().id();
        DocumentVersion replaced = new DocumentVersion(id, 1);
        DocumentVersion stranger = new DocumentVersion("another-deployments-doc", 7);
        fulltext.upsert(List.of(new StoreRecord(id + "-v1-0", id, 1, "kb", "left behind", null),
                new StoreRecord("another-deployments-doc-v7-0", stranger.documentId(), 7, "kb", "not ours", null)));
        io.polyrag.core.model.CheckReport r = new StoreCheck(p).run(StoreCheck.Repair.ORPHANS);
        assertThat(r.stores()).filteredOn(s -> s.store().equals("fulltext")).singleElement().satisfies(s -> {
            assertThat(s.orphanVersions()).isEqualTo(1);
            assertThat(s.removedVersions()).isEqualTo(1);
            assertThat(s.examples()).anySatisfy(e -> assertThat(e).contains("another-deployments-doc")
                    .contains("never made"));
        });
        assertThat(fulltext.records(replaced)).isZero();
        assertThat(fulltext.records(stranger)).isEqualTo(1);
    }

    @Test
    void ingest_makes_each_document_visible_with_the_same_chunks_in_every_store() {
        IngestReport r = pipeline(fulltext).ingest(List.of(
                IngestInput.ofText("file:///a.md", "a.md", longDoc("volcanoes", 6)),
                IngestInput.ofText("file:///b.md", "b.md", "# Tides\n\nThe moon pulls the oceans.")), "kb", p -> { });
        assertThat(r.added()).isEqualTo(2);
        assertThat(r.failed()).isZero();
        assertThat(catalog.countDocuments(SearchScope.ALL)).isEqualTo(2);
        long chunks = catalog.documents(SearchScope.ALL, 0, 10).stream().mapToInt(d -> d.chunkCount()).sum();
        assertThat(chunks).isEqualTo(r.chunks()).isGreaterThan(2);
        assertThat(vectors.size()).isEqualTo(chunks);
        assertThat(fulltext.size()).isEqualTo(chunks);
        String tides = fulltextHits("moon oceans").getFirst();
        assertThat(catalog.resolve(List.of(tides), SearchScope.ALL).get(tides).title()).isEqualTo("Tides");
        assertThat(catalog.resolve(List.of(tides), SearchScope.ALL).get(tides).chunk().embeddingModel())
                .isEqualTo("bge-small-en-v1.5-q");
    }

    @Test
    void the_embedding_cache_drops_the_vectors_of_replaced_and_deleted_text_and_keeps_the_unchanged() {
        CachingEmbedder cached = new CachingEmbedder(embedder, catalog.embeddingCache());
        IngestPipeline p = pipeline(cached, fulltext, new IngestPipeline.Options(2, 10_000, "test"));
        String key = embedder.modelId() + "@" + embedder.maxTokens();
        // Two sections, each its own chunk (64 tokens at most): the first stays, the second changes.
        String kept = "## Keeper\n\n" + "The lighthouse keeper trims the wick every evening and polishes the lens. "
                .repeat(3);
        String first = "## Fuel\n\n" + "The lamp burned whale oil for many years before anything else. ".repeat(3);
        String second = "## Fuel\n\n" + "The lamp burns paraffin now, brighter and cheaper than oil. ".repeat(3);
        p.ingest(List.of(IngestInput.ofText("file:///l.md", "l.md", "# Lamps\n\n" + kept + "\n\n" + first)), "kb",
                x -> { });
        String id = catalog.documents(SearchScope.ALL, 0, 10).getFirst().id();
        List<String> v1 = hashes(id);
        assertThat(v1).hasSize(2);
        assertThat(catalog.embeddingCache().vectors(key, v1)).hasSize(2);

        IngestReport r = p.ingest(List.of(IngestInput.ofText("file:///l.md", "l.md", "# Lamps\n\n" + kept + "\n\n"
                + second)), "kb", x -> { });
        assertThat(r.updated()).isEqualTo(1);
        List<String> v2 = hashes(id);
        assertThat(v2).hasSize(2).contains(v1.getFirst()).doesNotContain(v1.get(1));
        assertThat(catalog.embeddingCache().vectors(key, v1)).as("the replaced chunk's vector is gone, the unchanged one's stays")
                .containsOnlyKeys(v1.getFirst());
        assertThat(catalog.embeddingCache().vectors(key, v2)).hasSize(2);

        p.delete(List.of(id));
        assertThat(catalog.embeddingCache().vectors(key, v2)).isEmpty();
    }

    /** The cache keys of a document's visible chunks: the hashes of the texts they were embedded from. */
    private List<String> hashes(String documentId) {
        var doc = catalog.document(documentId).orElseThrow();
        return catalog.chunks(documentId, doc.visibleVersion(), 0, Integer.MAX_VALUE).stream().map(c -> Ids.sha256Hex(
                c.indexText(doc.title()).getBytes(java.nio.charset.StandardCharsets.UTF_8))).toList();
    }

    @Test
    void progress_counts_files_and_chunks_as_each_large_file_completes() {
        // Four files in one batch of sixteen: each holds more chunks than a batch may, so each is written on its own
        // and the count moves file by file instead of jumping from 0/4 to 4/4 at the end.
        IngestPipeline p = pipeline(embedder, fulltext, new IngestPipeline.Options(16, 3, 100_000, "test", false));
        List<io.polyrag.core.model.JobProgress> seen = new java.util.ArrayList<>();
        IngestReport r = p.ingest(List.of("volcanoes", "glaciers", "deserts", "reefs").stream()
                .map(t -> IngestInput.ofText("file:///" + t + ".md", t + ".md", longDoc(t, 8))).toList(), "kb",
                seen::add);
        assertThat(r.added()).isEqualTo(4);
        List<String> counts = seen.stream().filter(g -> !g.stage().equals("done"))
                .map(g -> g.processed() + "/" + g.total()).distinct().toList();
        assertThat(counts).containsSubsequence("0/4", "1/4", "2/4", "3/4", "4/4");
        int chunksAfterFirst = seen.stream().filter(g -> g.processed() == 1).mapToInt(g -> g.chunks()).max()
                .orElseThrow();
        assertThat(chunksAfterFirst).isPositive().isLessThan(r.chunks());
    }

    @Test
    void re_ingesting_unchanged_content_does_no_work() {
        List<IngestInput> inputs = List.of(IngestInput.ofText("file:///a.md", "a.md", longDoc("volcanoes", 5)));
        pipeline(fulltext).ingest(inputs, "kb", p -> { });
        long before = vectors.size();
        var version = catalog.document(Ids.documentId("kb", "file:///a.md")).orElseThrow().visibleVersion();
        IngestReport again = pipeline(fulltext).ingest(inputs, "kb", p -> { });
        assertThat(again.unchanged()).isEqualTo(1);
        assertThat(again.added() + again.updated() + again.chunks()).isZero();
        assertThat(vectors.size()).isEqualTo(before);
        assertThat(catalog.document(Ids.documentId("kb", "file:///a.md")).orElseThrow().visibleVersion())
                .isEqualTo(version);
    }

    @Test
    void re_ingesting_more_inputs_than_one_look_ahead_finds_the_unchanged_and_the_changed_in_each() {
        // The catalog is read 256 inputs at a time: a change in the first and in the second of those must both be
        // found, and every other input found unchanged.
        java.util.function.IntFunction<IngestInput> note = i -> IngestInput.ofText("file:///n" + i + ".md",
                "n" + i + ".md", "Note " + i + " about tide pools.");
        List<IngestInput> first = java.util.stream.IntStream.range(0, 300).mapToObj(note).toList();
        pipeline(fulltext).ingest(first, "kb", p -> { });
        List<IngestInput> second = new java.util.ArrayList<>(first);
        second.set(10, IngestInput.ofText("file:///n10.md", "n10.md", "Note 10, rewritten, about kelp."));
        second.set(280, IngestInput.ofText("file:///n280.md", "n280.md", "Note 280, rewritten, about crabs."));
        IngestReport again = pipeline(fulltext).ingest(second, "kb", p -> { });
        assertThat(again.unchanged()).isEqualTo(298);
        assertThat(again.updated()).isEqualTo(2);
        assertThat(again.added()).isZero();
        assertThat(catalog.document(Ids.documentId("kb", "file:///n280.md")).orElseThrow().visibleVersion())
                .isEqualTo(2);
    }

    @Test
    void changed_content_replaces_the_old_version_everywhere_and_counts_never_grow() {
        pipeline(fulltext).ingest(List.of(IngestInput.ofText("file:///a.md", "a.md",
                longDoc("volcanoes", 6) + "Obsidianite is a rare word.")), "kb", p -> { });
        assertThat(fulltextHits("obsidianite")).hasSize(1);
        for (int round = 0; round < 3; round++) {
            IngestReport r = pipeline(fulltext).ingest(List.of(IngestInput.ofText("file:///a.md", "a.md",
                    longDoc("glaciers", 3) + "Round " + round)), "kb", p -> { });
            assertThat(r.updated()).isEqualTo(1);
        }
        var doc = catalog.document(Ids.documentId("kb", "file:///a.md")).orElseThrow();
        assertThat(doc.visibleVersion()).isEqualTo(4);
        assertThat(vectors.size()).isEqualTo(doc.chunkCount());
        assertThat(fulltext.size()).isEqualTo(doc.chunkCount());
        assertThat(fulltextHits("obsidianite")).isEmpty();
        assertThat(fulltextHits("glaciers")).allSatisfy(id -> assertThat(id).contains("-v4-"));
    }

    @Test
    void one_bad_input_fails_alone_with_its_reason() {
        byte[] garbage = new byte[2048];
        new Random(7).nextBytes(garbage);
        IngestReport r = pipeline(fulltext).ingest(List.of(
                IngestInput.ofText("file:///good.md", "good.md", "# Good\n\nFine content."),
                new IngestInput("file:///bin.txt", "bin.txt", garbage.length, null, () -> garbage),
                new IngestInput("file:///gone.md", "gone.md", -1, null, () -> {
                    throw new java.nio.file.NoSuchFileException("/gone.md");
                }),
                IngestInput.ofText("file:///huge.md", "huge.md", "x".repeat(20_000)),
                IngestInput.ofText("file:///empty.md", "empty.md", "   \n")), "kb", p -> { });
        assertThat(r.added()).isEqualTo(1);
        assertThat(r.failed()).isEqualTo(4);
        assertThat(r.errors()).extracting(e -> e.source() + " -> " + e.reason()).satisfiesExactly(
                e -> assertThat(e).startsWith("bin.txt -> bin.txt: looks like binary data"),
                e -> assertThat(e).startsWith("gone.md -> gone.md: cannot read it (NoSuchFileException"),
                e -> assertThat(e).contains("huge.md: too large").contains("POLYRAG_INGEST_MAX_FILE_MB"),
                e -> assertThat(e).contains("empty.md: no text to index"));
        assertThat(catalog.countDocuments(SearchScope.ALL)).isEqualTo(1);
    }

    /** A file that grew since it was listed is read one byte past the limit at most, not whole (up to 2 GB). */
    @Test
    void a_file_grown_since_listed_is_read_no_further_than_the_limit() {
        java.util.concurrent.atomic.AtomicLong asked = new java.util.concurrent.atomic.AtomicLong();
        IngestReport r = pipeline(fulltext).ingest(List.of(new IngestInput("file:///grown.log", "grown.log", 10, null,
                new IngestInput.Content() {
                    @Override
                    public byte[] read() {
                        throw new AssertionError("read whole");
                    }

                    @Override
                    public byte[] read(long maxBytes) {
                        asked.set(maxBytes);
                        return "x".repeat((int) Math.min(maxBytes, 1_000_000)).getBytes(StandardCharsets.UTF_8);
                    }
                })), "kb", p -> { });
        assertThat(r.errors()).singleElement().satisfies(e -> assertThat(e.reason()).contains("too large"));
        assertThat(asked.get()).isLessThan(1_000_000);
    }

    @Test
    void a_failing_store_leaves_nothing_half_written_and_the_old_version_visible() {
        pipeline(fulltext).ingest(List.of(IngestInput.ofText("file:///a.md", "a.md", "# A\n\nOriginal aardvark.")),
                "kb", p -> { });
        long vectorsBefore = vectors.size();
        FullTextStore failing = new FailingUpserts(fulltext);
        IngestPipeline p = pipeline(failing);
        List<IngestInput> inputs = List.of(
                IngestInput.ofText("file:///a.md", "a.md", "# A\n\nReplacement bandicoot."),
                IngestInput.ofText("file:///new.md", "new.md", "# N\n\nBrand new capybara."));
        IngestStopped stopped = org.assertj.core.api.Assertions.catchThrowableOfType(
                IngestStopped.class, () -> p.ingest(inputs, "kb", x -> { }));
        assertThat(stopped).hasMessageStartingWith("ingest stopped: disk full").hasMessageContaining("0 of 2 inputs");
        IngestReport r = stopped.report();
        assertThat(r.failed()).isEqualTo(2);
        assertThat(r.errors()).allSatisfy(e -> assertThat(e.reason()).contains("nothing of it was kept")
                .contains("disk full"));
        assertThat(vectors.size()).isEqualTo(vectorsBefore);
        assertThat(catalog.countDocuments(SearchScope.ALL)).isEqualTo(1);
        assertThat(catalog.pendingVersions()).isEmpty();
        String hit = fulltextHits("aardvark").getFirst();
        assertThat(catalog.resolve(List.of(hit), SearchScope.ALL)).containsKey(hit);
        assertThat(fulltextHits("bandicoot capybara")).isEmpty();
    }

    @Test
    void a_file_listed_twice_is_written_once_though_its_first_copy_is_still_on_its_way() {
        // One document per batch: the first a.md is being embedded or written while the second is parsed, and the
        // second must find it indexed (unchanged), not race it to a second version.
        IngestPipeline p = pipeline(embedder, fulltext, new IngestPipeline.Options(1, 10_000, "test"));
        IngestInput a = IngestInput.ofText("file:///a.md", "a.md", longDoc("volcanoes", 4));
        IngestReport r = p.ingest(List.of(a, IngestInput.ofText("file:///b.md", "b.md", "# B\n\nBees."), a), "kb",
                x -> { });
        assertThat(r.added()).isEqualTo(2);
        assertThat(r.unchanged()).isEqualTo(1);
        assertThat(catalog.document(Ids.documentId("kb", "file:///a.md")).orElseThrow().visibleVersion()).isEqualTo(1);
    }

    /** The same, with both copies in one batch: they were written as two versions and counted as two documents. */
    @Test
    void a_file_listed_twice_in_one_batch_is_written_once() {
        IngestPipeline p = pipeline(embedder, fulltext, new IngestPipeline.Options(10, 10_000, "test"));
        IngestInput a = IngestInput.ofText("file:///a.md", "a.md", "# A\n\nAnts.");
        IngestReport r = p.ingest(List.of(a, IngestInput.ofText("file:///b.md", "b.md", "# B\n\nBees."), a), "kb",
                x -> { });
        assertThat(r.added()).isEqualTo(2);
        assertThat(r.unchanged()).isEqualTo(1);
        assertThat(catalog.document(Ids.documentId("kb", "file:///a.md")).orElseThrow().visibleVersion()).isEqualTo(1);
    }

    @Test
    void a_full_disk_mid_ingest_stops_it_and_no_later_batch_is_written() {
        List<Integer> calls = new java.util.ArrayList<>();
        FullTextStore thirdFails = new CountingUpserts(fulltext, calls) {
            @Override
            public void upsert(List<StoreRecord> records) {
                if (calls.size() == 2) {
                    calls.add(records.size());
                    throw new StoreException("disk full", new IOException("No space left on device"));
                }
                super.upsert(records);
            }
        };
        IngestPipeline p = pipeline(embedder, thirdFails, new IngestPipeline.Options(1, 10_000, "test"));
        List<IngestInput> inputs = java.util.stream.IntStream.range(0, 8).mapToObj(i -> IngestInput.ofText(
                "file:///n" + i + ".md", "n" + i + ".md", "# Note " + i + "\n\nNote number " + i + "."))
                .toList();
        IngestStopped stopped = org.assertj.core.api.Assertions.catchThrowableOfType(
                IngestStopped.class, () -> p.ingest(inputs, "kb", x -> { }));
        assertThat(stopped).hasMessageStartingWith("ingest stopped: disk full").hasMessageContaining("2 of 8 inputs");
        // What it had done rides along, for usage: those documents' embeddings were spent.
        assertThat(PartialIngest.of(stopped)).hasValueSatisfying(r -> assertThat(r.added()).isEqualTo(2));
        assertThat(calls).hasSize(3);
        assertThat(catalog.countDocuments(SearchScope.ALL)).isEqualTo(2);
        assertThat(catalog.pendingVersions()).isEmpty();
        assertThat(fulltext.size()).isEqualTo(2);
        assertThat(vectors.size()).isEqualTo(2);
    }

    @Test
    void recovery_removes_versions_a_crash_left_pending() {
        String id = Ids.documentId("kb", "file:///crash.md");
        Chunk c = Chunk.builder(id, 1, 0).text("half written").offsets(0, 12).tokenCount(2).build();
        catalog.stage(new DocumentDraft(id, "kb", "file:///crash.md", "Crash", "text/markdown", "h", 12, List.of(c)), 1);
        fulltext.upsert(List.of(new StoreRecord(c.id(), id, 1, "kb", "half written", null)));
        assertThat(pipeline(fulltext).recover()).isEqualTo(1);
        assertThat(fulltext.size()).isZero();
        assertThat(catalog.pendingVersions()).isEmpty();
        assertThat(catalog.document(id)).isEmpty();
    }

    @Test
    void deleting_a_document_removes_it_from_every_store() {
        IngestPipeline p = pipeline(fulltext);
        p.ingest(List.of(IngestInput.ofText("file:///a.md", "a.md", longDoc("deserts", 4)),
                IngestInput.ofText("file:///b.md", "b.md", "# B\n\nKeep me.")), "kb", x -> { });
        List<DocumentVersion> removed = p.delete(List.of(Ids.documentId("kb", "file:///a.md")));
        assertThat(removed).hasSize(1);
        assertThat(fulltextHits("deserts")).isEmpty();
        assertThat(vectors.size()).isEqualTo(1);
        assertThat(catalog.countDocuments(SearchScope.ALL)).isEqualTo(1);
    }

    @Test
    void automatic_batches_grow_to_about_a_second_of_embedding_when_vectors_come_fast() {
        java.util.List<Integer> batches = new java.util.ArrayList<>();
        FullTextStore sizes = new CountingUpserts(fulltext, batches);
        Embedder instant = new InstantEmbedder(embedder);
        IngestPipeline p = pipeline(instant, sizes, new IngestPipeline.Options(0, 10_000, "test"));
        List<IngestInput> inputs = java.util.stream.IntStream.range(0, 400).mapToObj(i -> IngestInput.ofText(
                "file:///n" + i + ".md", "n" + i + ".md", "# Note " + i + "\n\nA short note numbered " + i + "."))
                .toList();
        IngestReport r = p.ingest(inputs, "kb", x -> { });
        assertThat(r.added()).isEqualTo(400);
        // The first batch is small, each later one at most four times the last, up to 256 chunks: 16, 64, 256, 64.
        assertThat(batches).containsExactly(16, 64, 256, 64);
    }

    @Test
    void with_vectors_off_automatic_batches_close_at_four_times_the_chunks() {
        java.util.List<Integer> batches = new java.util.ArrayList<>();
        FullTextStore sizes = new CountingUpserts(fulltext, batches);
        IngestPipeline p = new IngestPipeline(catalog, new TextFormatsParser(), new StructuredChunker(
                embedder.tokenCounter(), 64, 8), null, new StoreSet(Map.of(Modality.FULLTEXT, sizes)),
                new IngestPipeline.Options(0, 10_000, "test"));
        List<IngestInput> inputs = java.util.stream.IntStream.range(0, 1100).mapToObj(i -> IngestInput.ofText(
                "file:///t" + i + ".md", "t" + i + ".md", "# Note " + i + "\n\nA short note numbered " + i + "."))
                .toList();
        IngestReport r = p.ingest(inputs, "kb", x -> { });
        assertThat(r.added()).isEqualTo(1100);
        // Nothing to embed: a batch's commits are its cost, so it holds 4 × 256 one-chunk notes, not 256.
        assertThat(batches).containsExactly(1024, 76);
        assertThat(catalog.countDocuments(SearchScope.ALL)).isEqualTo(1100);
    }

    /** A file whose parse runs out of memory or stack fails alone; the files around it go in. */
    @Test
    void a_file_whose_parse_throws_an_error_fails_alone() {
        TextFormatsParser real = new TextFormatsParser();
        io.polyrag.core.port.Parser hostile = new io.polyrag.core.port.Parser() {
            @Override
            public io.polyrag.core.model.ParsedDocument parse(io.polyrag.core.model.SourceItem item) {
                if (item.name().startsWith("oom")) {
                    throw new OutOfMemoryError("Java heap space");
                }
                if (item.name().startsWith("deep")) {
                    throw new StackOverflowError();
                }
                return real.parse(item);
            }

            @Override
            public java.util.Set<String> mediaTypes() {
                return real.mediaTypes();
            }

            @Override
            public boolean acceptsName(String fileName) {
                return real.acceptsName(fileName);
            }
        };
        IngestPipeline p = new IngestPipeline(catalog, hostile, new StructuredChunker(embedder.tokenCounter(), 64, 8),
                null, new StoreSet(Map.of(Modality.FULLTEXT, fulltext)), new IngestPipeline.Options(0, 10_000, "test"));
        List<IngestInput> inputs = List.of(IngestInput.ofText("file:///a.md", "a.md", "# A\n\nAlpha note."),
                IngestInput.ofText("file:///oom.md", "oom.md", "# B\n\nBeta note."),
                IngestInput.ofText("file:///deep.md", "deep.md", "# C\n\nGamma note."),
                IngestInput.ofText("file:///d.md", "d.md", "# D\n\nDelta note."));
        IngestReport r = p.ingest(inputs, "kb", x -> { });
        assertThat(r.added()).isEqualTo(2);
        assertThat(r.failed()).isEqualTo(2);
        assertThat(r.errors()).anySatisfy(e -> assertThat(e.reason()).contains("oom.md").contains("memory"))
                .anySatisfy(e -> assertThat(e.reason()).contains("deep.md").contains("nested too deeply"));
        assertThat(p.check(new io.polyrag.core.model.SourceItem("test:oom", "oom.md", new byte[] {'x'}, null))
                .problem()).contains("memory");
    }

    /** The real model's shape, with vectors that take no time: a pace no CPU model has. */
    private static final class InstantEmbedder extends io.polyrag.core.port.ForwardingEmbedder {
        InstantEmbedder(Embedder model) {
            super(model);
        }

        @Override
        public List<float[]> embedPassages(List<String> passages) {
            float[] unit = new float[delegate.dimension()];
            unit[0] = 1;
            return passages.stream().map(x -> unit.clone()).toList();
        }

        @Override
        public void close() {
            // the shared model outlives this test's pipeline
        }
    }

    /** The real store, recording how many records each write brings. */
    private static class CountingUpserts extends FailingUpserts {
        private final List<Integer> sizes;

        CountingUpserts(FullTextStore delegate, List<Integer> sizes) {
            super(delegate);
            this.sizes = sizes;
        }

        @Override
        public void upsert(List<StoreRecord> records) {
            sizes.add(records.size());
            delegate().upsert(records);
        }
    }

    /** The real store, except that writes fail as a full disk would make them. */
    private static class FailingUpserts implements FullTextStore {
        private final FullTextStore delegate;

        FailingUpserts(FullTextStore delegate) {
            this.delegate = delegate;
        }

        FullTextStore delegate() {
            return delegate;
        }

        @Override
        public void upsert(List<StoreRecord> records) {
            throw new StoreException("disk full", new IOException("No space left on device"));
        }

        @Override
        public List<StoreHit> search(String query, SearchScope scope, int limit) {
            return delegate.search(query, scope, limit);
        }

        @Override
        public void delete(Collection<DocumentVersion> versions) {
            delegate.delete(versions);
        }

        @Override
        public void deleteDocuments(Collection<String> documentIds) {
            delegate.deleteDocuments(documentIds);
        }

        @Override
        public long size() {
            return delegate.size();
        }

        @Override
        public java.util.Map<DocumentVersion, Long> versions() {
            return delegate.versions();
        }

        @Override
        public void close() {
        }
    }
}
