package io.polyrag.retrieval;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.polyrag.core.InvalidInputException;
import io.polyrag.core.model.Chunk;
import io.polyrag.core.model.ChunkKind;
import io.polyrag.core.model.DocumentDraft;
import io.polyrag.core.model.DocumentVersion;
import io.polyrag.core.model.FusionMethod;
import io.polyrag.core.model.Modality;
import io.polyrag.core.model.SearchRequest;
import io.polyrag.core.model.SearchResponse;
import io.polyrag.core.model.SearchScope;
import io.polyrag.core.model.StoreHit;
import io.polyrag.store.catalog.H2CatalogProvider;
import io.polyrag.store.catalog.JdbcCatalog;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.atomic.AtomicReference;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** The searcher's orchestration over a real catalog, with retrievers that stand in for stores that fail or hang. */
class HybridSearcherTest {
    @TempDir
    Path dir;

    private JdbcCatalog catalog;
    private HybridSearcher searcher;

    @BeforeEach
    void open() {
        catalog = H2CatalogProvider.open(dir);
        publish("d1", "alpha", "Alpha text about rivers.");
        publish("d2", "alpha", "Beta text about mountains.");
        publish("d3", "beta", "Gamma text about oceans.");
    }

    @AfterEach
    void close() {
        if (searcher != null) {
            searcher.close();
        }
        catalog.close();
    }

    private void publish(String doc, String kb, String text) {
        Chunk c = Chunk.builder(doc, 1, 0).text(text).offsets(0, text.length()).tokenCount(4).build();
        catalog.stage(new DocumentDraft(doc, kb, "file:///" + doc, "Title " + doc, "text/plain", "h", 1, List.of(c)), 1);
        catalog.publish(new DocumentVersion(doc, 1));
    }

    private static StoreHit hit(String doc, double score) {
        return new StoreHit(Chunk.idOf(doc, 1, 0), doc, 1, score);
    }

    private static Retriever fixed(Modality m, List<StoreHit> hits) {
        return TestRetrievers.of(m, (query, scope, limit) -> {
                return hits.stream().limit(limit).toList();
            });
    }

    private HybridSearcher searcher(long timeoutMs, Retriever... retrievers) {
        return searcher(timeoutMs, 10, retrievers);
    }

    private HybridSearcher searcher(long timeoutMs, int candidates, Retriever... retrievers) {
        searcher = new HybridSearcher(List.of(retrievers), catalog, new HybridSearcher.Options(candidates, timeoutMs,
                FusionMethod.RRF, 60, Map.of(Modality.VECTOR, 0.5, Modality.FULLTEXT, 0.5), Fusion.Normalization.ZSCORE, 0.8,
                100, 50, 30));
        return searcher;
    }

    /**
     * A document of twelve text chunks and six figures all anchored to the first, published; returned: a full-text
     * ranking of text 0, then its six figures' captions, then texts 1-11.
     */
    private List<StoreHit> figuresOfTheFirstChunk() {
        List<Chunk> chunks = new ArrayList<>();
        for (int i = 0; i < 12; i++) {
            chunks.add(Chunk.builder("fig", 1, i).text("text " + i).offsets(i, i + 1).tokenCount(2).build());
        }
        for (int f = 1; f <= 6; f++) {
            chunks.add(Chunk.builder("fig", 1, 11 + f).text("Figure " + f).offsets(0, 1).tokenCount(2)
                    .figure(new io.polyrag.core.model.Figure(f, "Figure " + f, "image/png", 10, 10, List.of(0)))
                    .build());
        }
        catalog.stage(new DocumentDraft("fig", "alpha", "file:///fig", "Fig", "application/pdf", "h", 1, chunks), 1);
        catalog.publish(new DocumentVersion("fig", 1));
        List<StoreHit> ranked = new ArrayList<>();
        ranked.add(new StoreHit(Chunk.idOf("fig", 1, 0), "fig", 1, 100));
        for (int f = 1; f <= 6; f++) {
            ranked.add(new StoreHit(Chunk.idOf("fig", 1, 11 + f), "fig", 1, 100 - f));
        }
        for (int i = 1; i < 12; i++) {
            ranked.add(new StoreHit(Chunk.idOf("fig", 1, i), "fig", 1, 90 - i));
        }
        return ranked;
    }

    /** Six figure hits folding into a text hit already listed leave no gap: the search reads on for the places. */
    @Test
    void figure_hits_folded_into_listed_text_leave_the_list_full() {
        SearchResponse r = searcher(5000, 100, fixed(Modality.FULLTEXT, figuresOfTheFirstChunk())).search(
                new SearchRequest("text", 10, List.of(), Set.of(Modality.FULLTEXT), null));
        assertThat(r.hits()).hasSize(10);
        assertThat(r.hits()).extracting(h -> h.ordinal()).containsExactly(0, 1, 2, 3, 4, 5, 6, 7, 8, 9);
    }

    /** Reranked, a search whose figure hits fold into their anchor reads on past the reranker's depth too. */
    @Test
    void figure_hits_folded_after_a_rerank_leave_the_list_full() {
        io.polyrag.core.port.Reranker keeps = TestRetrievers.reranker("test", (query, passages) ->
                java.util.stream.IntStream.range(0, passages.size()).mapToObj(i -> 1.0 - i / 100.0).toList());
        // The reranker reads top_k + 3 deep (its own depth, 10, is less): six figures folded, seven hits were left.
        searcher = new HybridSearcher(List.of(fixed(Modality.FULLTEXT, figuresOfTheFirstChunk())), catalog,
                new HybridSearcher.Options(100, 5000, FusionMethod.RRF, 60, Map.of(), Fusion.Normalization.ZSCORE, 0.8,
                        1000, 50, 10), keeps, null);
        SearchResponse r = searcher.search(new SearchRequest("text", 10, List.of(), Set.of(Modality.FULLTEXT), null));
        assertThat(r.hits()).extracting(h -> h.ordinal()).containsExactly(0, 1, 2, 3, 4, 5, 6, 7, 8, 9);
    }

    @Test
    void fuses_both_legs_and_joins_text_and_titles_from_the_catalog() {
        SearchResponse r = searcher(5000, fixed(Modality.VECTOR, List.of(hit("d1", 0.9), hit("d2", 0.8))),
                fixed(Modality.FULLTEXT, List.of(hit("d2", 7.0)))).search(SearchRequest.of("mountains", 10));
        assertThat(r.degraded()).isEmpty();
        assertThat(r.modalities()).containsExactly(Modality.VECTOR, Modality.FULLTEXT);
        assertThat(r.hits()).extracting(h -> h.documentId()).containsExactly("d2", "d1");
        assertThat(r.hits().getFirst().text()).isEqualTo("Beta text about mountains.");
        assertThat(r.hits().getFirst().title()).isEqualTo("Title d2");
        assertThat(r.hits().getFirst().rank()).isEqualTo(1);
        assertThat(r.hits().getFirst().sources()).containsOnlyKeys("vector", "fulltext");
    }

    @Test
    void a_failing_leg_is_reported_as_degraded_and_the_search_still_answers() {
        Retriever broken = TestRetrievers.of(Modality.VECTOR, (query, scope, limit) -> {
                throw new IllegalStateException("index corrupted");
            });
        SearchResponse r = searcher(5000, broken, fixed(Modality.FULLTEXT, List.of(hit("d3", 2.0))))
                .search(SearchRequest.of("oceans", 5));
        assertThat(r.degraded()).singleElement().satisfies(d -> {
            assertThat(d.modality()).isEqualTo(Modality.VECTOR);
            assertThat(d.reason()).contains("index corrupted");
        });
        assertThat(r.hits()).extracting(h -> h.documentId()).containsExactly("d3");
    }

    @Test
    void a_hanging_leg_times_out_and_is_interrupted() throws InterruptedException {
        CountDownLatch interrupted = new CountDownLatch(1);
        Retriever hanging = TestRetrievers.of(Modality.VECTOR, (query, scope, limit) -> {
                try {
                    new CountDownLatch(1).await();
                } catch (InterruptedException e) {
                    interrupted.countDown();
                }
                return List.of();
            });
        SearchResponse r = searcher(50, hanging, fixed(Modality.FULLTEXT, List.of(hit("d1", 1.0))))
                .search(SearchRequest.of("rivers", 5));
        assertThat(r.degraded()).singleElement().satisfies(d -> assertThat(d.reason()).contains("timed out"));
        assertThat(r.hits()).hasSize(1);
        interrupted.await();
    }

    /** A graph leg (calibrated) answering d2 after {@code ms}; {@code patient}: one that waits for a model. */
    private static Retriever graphTaking(long ms, boolean patient) {
        return new Retriever() {
            @Override
            public Modality modality() {
                return Modality.GRAPH;
            }

            @Override
            public boolean calibrated() {
                return true;
            }

            @Override
            public boolean patient() {
                return patient;
            }

            @Override
            public List<StoreHit> retrieve(String query, SearchScope scope, int limit) {
                try {
                    Thread.sleep(ms);
                } catch (InterruptedException e) {
                    Thread.currentThread().interrupt();
                }
                return List.of(hit("d2", 1.0));
            }
        };
    }

    /** A leg that waits for a model every search (text-to-Cypher) is not cut off by the graph lag. */
    @Test
    void a_patient_graph_leg_is_waited_for_past_the_lag() {
        Retriever modelGraph = graphTaking(300, true);
        HybridSearcher s = searcher(5000, TestRetrievers.of(Modality.FULLTEXT, (query, scope, limit) -> List.of(
                hit("d1", 1.0))), modelGraph);
        s.graphLag(30);
        SearchResponse r = s.search(SearchRequest.of("rivers", 5));
        assertThat(r.degraded()).isEmpty();
        assertThat(r.hits()).extracting(h -> h.documentId()).contains("d2");
    }

    /** Text legs that failed at once leave the graph leg all there is: it gets the leg timeout, not the lag. */
    @Test
    void a_graph_leg_is_not_cut_to_the_lag_when_no_text_leg_answered() {
        Retriever graph = graphTaking(300, false);
        Retriever failing = TestRetrievers.of(Modality.FULLTEXT, (query, scope, limit) -> {
            throw new io.polyrag.core.StoreException("the full-text store is down");
        });
        HybridSearcher s = searcher(5000, failing, graph);
        s.graphLag(30);
        SearchResponse r = s.search(SearchRequest.of("rivers", 5));
        assertThat(r.hits()).extracting(h -> h.documentId()).containsExactly("d2");
        assertThat(r.degraded()).extracting(d -> d.modality()).containsExactly(Modality.FULLTEXT);
    }

    @Test
    void a_graph_leg_later_than_the_lag_after_the_text_legs_is_left_out_and_says_why() throws InterruptedException {
        CountDownLatch interrupted = new CountDownLatch(1);
        Retriever slowGraph = new Retriever() {
            @Override
            public Modality modality() {
                return Modality.GRAPH;
            }

            @Override
            public boolean calibrated() {
                return true;
            }

            @Override
            public List<StoreHit> retrieve(String query, SearchScope scope, int limit) {
                try {
                    Thread.sleep(5_000);
                } catch (InterruptedException e) {
                    interrupted.countDown();
                }
                return List.of(hit("d2", 1.0));
            }
        };
        Retriever slowText = TestRetrievers.of(Modality.FULLTEXT, (query, scope, limit) -> {
            try {
                Thread.sleep(200);
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
            }
            return List.of(hit("d1", 1.0));
        });
        HybridSearcher s = searcher(5000, slowText, slowGraph);
        s.graphLag(30);
        long start = System.nanoTime();
        SearchResponse r = s.search(SearchRequest.of("rivers", 5));
        long tookMs = (System.nanoTime() - start) / 1_000_000;
        // Bounded by the text leg plus the lag, not by the leg timeout: the graph leg's 5 s are not waited for.
        assertThat(tookMs).isLessThan(2_000);
        assertThat(r.degraded()).singleElement().satisfies(d -> {
            assertThat(d.modality()).isEqualTo(Modality.GRAPH);
            assertThat(d.reason()).contains("30 ms after the text legs").contains("search.graph.lag.ms");
        });
        assertThat(r.hits()).extracting(h -> h.documentId()).containsExactly("d1");
        // Left to finish, not interrupted: an interrupt inside an embedded store's read (TDB2) closes the channel
        // its index is mapped through, failing the store until a restart.
        assertThat(interrupted.await(500, java.util.concurrent.TimeUnit.MILLISECONDS)).as("the late leg runs on")
                .isFalse();
        // Alone, a graph leg is bounded by the leg timeout only; past it the search goes on without it, and the leg
        // is still not interrupted (alone, or reading TDB2 while its copy loads, it reached that deadline and the
        // interrupt broke the store until a restart).
        s.graphLag(30);
        assertThat(searcher(100, slowGraph).search(new SearchRequest("rivers", 5, List.of(), Set.of(Modality.GRAPH),
                null)).degraded()).singleElement().satisfies(d -> assertThat(d.reason()).contains("timed out"));
        assertThat(interrupted.await(2, java.util.concurrent.TimeUnit.SECONDS)).as("a late graph leg runs on")
                .isFalse();
        // The searching thread interrupted (a server stopping, a caller's cancel) leaves a graph leg running too.
        Thread searching = Thread.ofVirtual().start(() -> searcher(5000, slowGraph).search(new SearchRequest(
                "rivers", 5, List.of(), Set.of(Modality.GRAPH), null)));
        Thread.sleep(200);
        searching.interrupt();
        searching.join(5_000);
        assertThat(interrupted.await(1, java.util.concurrent.TimeUnit.SECONDS)).as("not passed on to a graph leg")
                .isFalse();
    }

    @Test
    void hits_of_invisible_or_out_of_scope_documents_are_dropped() {
        catalog.delete(List.of("d1"));
        AtomicReference<SearchScope> seen = new AtomicReference<>();
        Retriever capturing = TestRetrievers.of(Modality.FULLTEXT, (query, scope, limit) -> {
                seen.set(scope);
                return List.of(hit("d1", 3), hit("d2", 2), hit("d3", 1), new StoreHit("ghost-v1-0", "ghost", 1, 0.5));
            });
        SearchResponse r = searcher(5000, capturing).search(new SearchRequest("text", 10, List.of("alpha"),
                Set.of(), null));
        assertThat(seen.get().knowledgeBases()).containsExactly("alpha");
        assertThat(r.hits()).extracting(h -> h.documentId()).containsExactly("d2");
    }

    @Test
    void bad_requests_are_refused_with_the_limit_and_the_fix() {
        HybridSearcher s = searcher(5000, fixed(Modality.FULLTEXT, List.of()));
        assertThatThrownBy(() -> s.search(SearchRequest.of("  ", 5))).isInstanceOf(InvalidInputException.class)
                .hasMessageContaining("query is empty");
        assertThatThrownBy(() -> s.search(SearchRequest.of("x".repeat(101), 5)))
                .isInstanceOf(InvalidInputException.class).hasMessageContaining("101 characters")
                .hasMessageContaining("limit is 100");
        assertThatThrownBy(() -> s.search(SearchRequest.of("x", 0))).hasMessageContaining("between 1 and 50");
        assertThatThrownBy(() -> s.search(SearchRequest.of("x", 51))).hasMessageContaining("was 51");
        assertThatThrownBy(() -> s.search(new SearchRequest("x", 5, List.of(), Set.of(Modality.VECTOR), null)))
                .hasMessageContaining("'vector' is not enabled").hasMessageContaining("enabled: fulltext");
        assertThatThrownBy(() -> s.search(new SearchRequest("x", 5, List.of("Bad KB!"), Set.of(), null)))
                .hasMessageContaining("knowledge base name");
    }

    @Test
    void invisible_hits_at_the_top_do_not_shrink_the_result_below_top_k() {
        for (int i = 0; i < 40; i++) {
            publish("m" + i, "alpha", "Filler document number " + i + " with its own words w" + i);
        }
        List<String> deleted = new java.util.ArrayList<>();
        List<StoreHit> hits = new java.util.ArrayList<>();
        for (int i = 0; i < 40; i++) {
            hits.add(hit("m" + i, 1.0 - i / 100.0));
            if (i < 30) {
                deleted.add("m" + i);
            }
        }
        catalog.delete(deleted);
        SearchResponse r = searcher(5000, 50, fixed(Modality.FULLTEXT, hits)).search(SearchRequest.of("filler", 5));
        assertThat(r.hits()).extracting(h -> h.documentId()).containsExactly("m30", "m31", "m32", "m33", "m34");
    }

    @Test
    void a_reranker_reorders_the_candidates_and_its_rank_is_kept_as_provenance() {
        Retriever legs = fixed(Modality.FULLTEXT, List.of(hit("d1", 3), hit("d2", 2), hit("d3", 1)));
        io.polyrag.core.port.Reranker prefersOceans = TestRetrievers.reranker("test", (query, passages) ->
                passages.stream().map(p -> p.contains("oceans") ? 1.0 : p.contains("rivers") ? 0.5 : 0.0).toList());
        searcher = new HybridSearcher(List.of(legs), catalog, TestRetrievers.options(10), prefersOceans, null);
        SearchResponse r = searcher.search(SearchRequest.of("water", 2));
        assertThat(r.hits()).extracting(h -> h.documentId()).containsExactly("d3", "d1");
        assertThat(r.hits().getFirst().sources().get("rerank").rank()).isEqualTo(1);
        assertThat(r.hits().getFirst().sources().get("fulltext").rank()).isEqualTo(3);
        assertThat(r.warnings()).isEmpty();
    }

    @Test
    void a_request_tunes_its_own_fusion_and_reranking() {
        // vector ranks d1 first, full text d2; weighted fusion follows whichever list weighs more.
        Retriever vector = fixed(Modality.VECTOR, List.of(hit("d1", 0.9), hit("d2", 0.1)));
        Retriever fulltext = fixed(Modality.FULLTEXT, List.of(hit("d2", 9.0), hit("d1", 1.0)));
        searcher(5000, vector, fulltext);
        java.util.function.Function<SearchRequest.Tuning, SearchResponse> run = t -> searcher.search(
                new SearchRequest("mountains", 2, List.of(), java.util.Set.of(), FusionMethod.WEIGHTED, java.util.Set.of(),
                        null, t));
        assertThat(run.apply(new SearchRequest.Tuning(null, Map.of(Modality.VECTOR, 5.0), null)).hits())
                .extracting(h -> h.documentId()).containsExactly("d1", "d2");
        SearchResponse fulltextHeavy = run.apply(new SearchRequest.Tuning(null, Map.of(Modality.FULLTEXT, 5.0), null));
        assertThat(fulltextHeavy.hits()).extracting(h -> h.documentId()).containsExactly("d2", "d1");
        assertThat(fulltextHeavy.fusion()).contains("fulltext=5.0").contains("vector=0.5");

        SearchResponse rrf = searcher.search(new SearchRequest("mountains", 2, List.of(), java.util.Set.of(),
                FusionMethod.RRF, java.util.Set.of(), null, new SearchRequest.Tuning(10, Map.of(), null)));
        assertThat(rrf.fusion()).contains("1 / (10 + rank)").doesNotContain("scores 0");
        // A top-k above the fused depth: the legs' tails score 0, and explain says how they are ordered.
        assertThat(searcher.search(SearchRequest.builder("rivers").topK(20).candidates(10).build()).fusion())
                .contains("each leg's list 10 deep").contains("an entry past a leg's first 10 scores 0");
        assertThat(rrf.hits().getFirst().score()).isCloseTo(1.0 / 11 + 1.0 / 12, org.assertj.core.data.Offset.offset(1e-9));

        assertThat(run.apply(new SearchRequest.Tuning(null, Map.of(), true)).warnings())
                .anySatisfy(w -> assertThat(w).contains("no reranker is configured"));
        assertThatThrownBy(() -> new SearchRequest.Tuning(0, Map.of(), null)).hasMessageContaining("rrf_k");
        assertThatThrownBy(() -> new SearchRequest.Tuning(null, Map.of(Modality.VECTOR, Double.NaN), null))
                .hasMessageContaining("weights.vector");
    }

    @Test
    void rerank_false_skips_the_configured_reranker() {
        Retriever legs = fixed(Modality.FULLTEXT, List.of(hit("d1", 3), hit("d2", 2), hit("d3", 1)));
        io.polyrag.core.port.Reranker reverses = TestRetrievers.reranker("test", (query, passages) ->
                java.util.stream.IntStream.range(0, passages.size()).mapToObj(i -> (double) i).toList());
        searcher = new HybridSearcher(List.of(legs), catalog, TestRetrievers.options(10), reverses, null);
        SearchRequest base = SearchRequest.of("water", 3);
        assertThat(searcher.search(base).hits()).extracting(h -> h.documentId()).containsExactly("d3", "d2", "d1");
        SearchResponse plain = searcher.search(new SearchRequest("water", 3, List.of(), java.util.Set.of(), null,
                java.util.Set.of(), null, new SearchRequest.Tuning(null, Map.of(), false)));
        assertThat(plain.hits()).extracting(h -> h.documentId()).containsExactly("d1", "d2", "d3");
        assertThat(plain.hits().getFirst().sources()).doesNotContainKey("rerank");
        assertThat(plain.fusion()).doesNotContain("reranked");
    }

    @Test
    void a_reranker_score_that_is_not_a_number_ranks_last_and_a_short_answer_keeps_the_fused_order() {
        Retriever legs = fixed(Modality.FULLTEXT, List.of(hit("d1", 3), hit("d2", 2), hit("d3", 1)));
        io.polyrag.core.port.Reranker overflows = TestRetrievers.reranker("fp16", (query, passages) ->
                passages.stream().map(p -> p.contains("oceans") ? Double.NaN : p.contains("rivers") ? 0.5 : 0.2)
                        .toList());
        searcher = new HybridSearcher(List.of(legs), catalog, TestRetrievers.options(10), overflows, null);
        SearchResponse r = searcher.search(SearchRequest.of("water", 3));
        assertThat(r.hits()).extracting(h -> h.documentId()).as("d3 (oceans) scored NaN").endsWith("d3");
        assertThat(r.hits()).allSatisfy(h -> assertThat(h.sources().get("rerank").score()).isFinite());
        io.polyrag.core.port.Reranker tooFew = TestRetrievers.reranker("short", (query, passages) -> List.of(1.0));
        searcher = new HybridSearcher(List.of(legs), catalog, TestRetrievers.options(10), tooFew, null);
        SearchResponse s = searcher.search(SearchRequest.of("water", 3));
        assertThat(s.hits()).extracting(h -> h.documentId()).containsExactly("d1", "d2", "d3");
        assertThat(s.warnings()).singleElement().asString().contains("scored 1 of 3");
        // Nor does explain say it was reranked (it said so whenever a reranker was configured).
        assertThat(s.fusion()).doesNotContain("reranked");
        assertThat(r.fusion()).contains("then reranked");
    }

    @Test
    void a_failing_reranker_leaves_the_fused_order_and_a_warning() {
        Retriever legs = fixed(Modality.FULLTEXT, List.of(hit("d1", 3), hit("d2", 2)));
        io.polyrag.core.port.Reranker broken = TestRetrievers.reranker("broken", (query, passages) -> {
            throw new IllegalStateException("rerank service down");
        });
        searcher = new HybridSearcher(List.of(legs), catalog, TestRetrievers.options(10), broken, null);
        SearchResponse r = searcher.search(SearchRequest.of("water", 2));
        assertThat(r.hits()).extracting(h -> h.documentId()).containsExactly("d1", "d2");
        assertThat(r.warnings()).singleElement().asString().contains("broken").contains("rerank service down");
    }

    @Test
    void expanded_queries_are_searched_too_and_fused_with_the_original() {
        Retriever byQuery = TestRetrievers.of(Modality.FULLTEXT, (query, scope, limit) -> {
                return query.contains("mountains") ? List.of(hit("d2", 2)) : List.of(hit("d1", 1));
            });
        searcher = new HybridSearcher(List.of(byQuery), catalog, TestRetrievers.options(10), null,
                new QueryExpander(new io.polyrag.testing.FixedReplyLlm("{\"queries\": [\"peaks and mountains\", \"rivers\"]}"),
                        QueryExpander.Mode.MULTIQUERY, 3));
        SearchResponse r = searcher.search(SearchRequest.of("high places", 5));
        assertThat(r.hits()).extracting(h -> h.documentId()).containsExactly("d1", "d2");
        assertThat(r.hits().getFirst().score()).isCloseTo(2.0 / 61, org.assertj.core.data.Offset.offset(1e-12));
        assertThat(r.warnings()).isEmpty();
    }

    @Test
    void a_failing_expansion_searches_the_query_alone_with_a_warning() {
        searcher = new HybridSearcher(List.of(fixed(Modality.FULLTEXT, List.of(hit("d1", 1)))), catalog,
                TestRetrievers.options(10), null, new QueryExpander(new io.polyrag.testing.FixedReplyLlm("not json"), QueryExpander.Mode.MULTIQUERY, 3));
        SearchResponse r = searcher.search(SearchRequest.of("rivers", 5));
        assertThat(r.hits()).extracting(h -> h.documentId()).containsExactly("d1");
        assertThat(r.warnings()).singleElement().asString().contains("query expansion").contains("did not answer");
    }

    /**
     * A leg that failed for the query is not asked again for its paraphrases: each waited out the timeout of a hung
     * store anew, and the leg listed as degraded still ranked their hits.
     */
    @Test
    void a_leg_that_failed_for_the_query_is_not_asked_for_its_paraphrases() {
        java.util.List<String> vectorAsked = new java.util.concurrent.CopyOnWriteArrayList<>();
        Retriever broken = TestRetrievers.of(Modality.VECTOR, (query, scope, limit) -> {
            vectorAsked.add(query);
            if (query.equals("high places")) {
                throw new IllegalStateException("the vector store went away");
            }
            return List.of(hit("d2", 1));
        });
        Retriever words = fixed(Modality.FULLTEXT, List.of(hit("d1", 1)));
        searcher = new HybridSearcher(List.of(broken, words), catalog, TestRetrievers.options(10), null,
                new QueryExpander(new io.polyrag.testing.FixedReplyLlm("{\"queries\": [\"peaks and mountains\"]}"),
                        QueryExpander.Mode.MULTIQUERY, 3));
        SearchResponse r = searcher.search(SearchRequest.of("high places", 5));
        assertThat(r.degraded()).extracting(d -> d.modality()).containsExactly(Modality.VECTOR);
        assertThat(vectorAsked).containsExactly("high places");
        assertThat(r.hits()).allSatisfy(h -> assertThat(h.sources()).doesNotContainKey("vector"));
    }

    /** A leg that waits for a language model (text-to-Cypher) is asked for the query only, not for each paraphrase. */
    @Test
    void a_leg_that_waits_for_a_model_is_not_asked_for_the_paraphrases() {
        java.util.List<String> asked = new java.util.concurrent.CopyOnWriteArrayList<>();
        Retriever patient = new Retriever() {
            @Override
            public Modality modality() {
                return Modality.GRAPH;
            }

            @Override
            public List<StoreHit> retrieve(String query, SearchScope scope, int limit) {
                asked.add(query);
                return List.of(hit("d2", 1));
            }

            @Override
            public boolean patient() {
                return true;
            }
        };
        searcher = new HybridSearcher(List.of(patient, fixed(Modality.FULLTEXT, List.of(hit("d1", 1)))), catalog,
                TestRetrievers.options(10), null, new QueryExpander(new io.polyrag.testing.FixedReplyLlm(
                        "{\"queries\": [\"peaks and mountains\", \"rivers\"]}"), QueryExpander.Mode.MULTIQUERY, 3));
        searcher.search(SearchRequest.of("high places", 5));
        assertThat(asked).containsExactly("high places");
    }
}
