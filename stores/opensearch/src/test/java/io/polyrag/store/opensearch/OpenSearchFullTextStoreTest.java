package io.polyrag.store.opensearch;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.polyrag.core.config.Config;
import io.polyrag.core.model.SearchScope;
import io.polyrag.core.model.StoreRecord;
import io.polyrag.core.port.FullTextStore;
import io.polyrag.core.spi.ProviderContext;
import io.polyrag.testing.FullTextStoreContract;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

/** The full-text store contract on a real OpenSearch node in this JVM, an index per test, reopened by name. */
class OpenSearchFullTextStoreTest extends FullTextStoreContract {
    @Override
    protected FullTextStore openStore(Path dir) {
        return open(dir, Map.of());
    }

    @Override
    protected boolean keepsWholeTexts() {
        return true;
    }

    private FullTextStore open(Path dir, Map<String, String> more) {
        Map<String, String> settings = new java.util.HashMap<>(Map.of("opensearch.url", TestOpenSearch.url(),
                "opensearch.index", "t-" + Integer.toHexString(dir.toString().hashCode())));
        settings.putAll(more);
        return new OpenSearchProvider().open(new ProviderContext(Config.load(Map.of(), settings), dir));
    }

    /**
     * A URL with a path (a gateway) is where requests go; one holding a password is refused without echoing it (the
     * client sent no credentials from it, and its 401 named the URL, password and all).
     */
    @Test
    void a_urls_path_is_kept_and_its_password_never_echoed(@org.junit.jupiter.api.io.TempDir Path dir)
            throws Exception {
        org.assertj.core.api.Assertions.assertThatThrownBy(() -> open(dir, Map.of("opensearch.url",
                "http://admin:s3cret@127.0.0.1:9"))).hasMessageContaining("POLYRAG_OPENSEARCH_USER")
                .hasMessageNotContaining("s3cret");
        List<String> paths = new java.util.concurrent.CopyOnWriteArrayList<>();
        var gateway = com.sun.net.httpserver.HttpServer.create(new java.net.InetSocketAddress("127.0.0.1", 0), 0);
        gateway.createContext("/", ex -> {
            paths.add(ex.getRequestURI().getPath());
            ex.sendResponseHeaders(404, -1);
            ex.close();
        });
        gateway.start();
        try {
            try {
                open(dir, Map.of("opensearch.url", "http://127.0.0.1:" + gateway.getAddress().getPort()
                        + "/search-gw/")).close();
            } catch (RuntimeException expected) {
                // the gateway answers nothing a cluster would
            }
            assertThat(paths).isNotEmpty().allMatch(path -> path.startsWith("/search-gw/"));
        } finally {
            gateway.stop(0);
        }
    }

    @Test
    void analysis_is_the_embedded_stores_english_analysis_token_for_token() throws Exception {
        String text = "The keepers' lamps were lighting Quillon's rocky shores nightly, and it's 1871 again: "
                + "U.S. sailors' running-lights, e-mail, naïve café owners.";
        List<String> lucene = new java.util.ArrayList<>();
        try (var analyzer = new org.apache.lucene.analysis.en.EnglishAnalyzer();
                var ts = analyzer.tokenStream("text", text)) {
            var term = ts.addAttribute(org.apache.lucene.analysis.tokenattributes.CharTermAttribute.class);
            ts.reset();
            while (ts.incrementToken()) {
                lucene.add(term.toString());
            }
            ts.end();
        }
        var response = java.net.http.HttpClient.newHttpClient().send(java.net.http.HttpRequest.newBuilder(
                java.net.URI.create(TestOpenSearch.url() + "/_analyze")).header("Content-Type", "application/json")
                .POST(java.net.http.HttpRequest.BodyPublishers.ofString("{\"analyzer\": \"english\", \"text\": \""
                        + text + "\"}")).build(), java.net.http.HttpResponse.BodyHandlers.ofString());
        List<String> opensearch = new java.util.ArrayList<>();
        java.util.regex.Matcher m = java.util.regex.Pattern.compile("\"token\":\"([^\"]*)\"").matcher(response.body());
        while (m.find()) {
            opensearch.add(m.group(1));
        }
        assertThat(opensearch).isNotEmpty().isEqualTo(lucene);

        FullTextStore store = open();
        store.upsert(List.of(new StoreRecord("c1", "d1", 1, "kb", "The keepers were lighting the lamps nightly.", null)));
        assertThat(store.search("keeper lighted lamp", SearchScope.ALL, 5)).extracting(h -> h.chunkId())
                .containsExactly("c1");
        assertThat(store.search("the and it", SearchScope.ALL, 5)).as("stop words only").isEmpty();
        assertThat(store.records(new io.polyrag.core.model.DocumentVersion("d1", 1))).isEqualTo(1);
    }

    @Test
    void replacing_a_version_leaves_no_search_gap() throws Exception {
        // What the pipeline does on re-ingest: write v2, publish it (catalog), delete v1. A search running throughout
        // must always find the document (v1 or v2 or both, the catalog picks): never nothing.
        FullTextStore store = open();
        store.upsert(List.of(new StoreRecord("d1-v1-0", "d1", 1, "kb", "foghorn schedule for the winter", null)));
        java.util.concurrent.atomic.AtomicInteger empty = new java.util.concurrent.atomic.AtomicInteger();
        java.util.concurrent.atomic.AtomicInteger searches = new java.util.concurrent.atomic.AtomicInteger();
        java.util.concurrent.atomic.AtomicBoolean done = new java.util.concurrent.atomic.AtomicBoolean();
        Thread searcher = Thread.ofVirtual().start(() -> {
            while (!done.get()) {
                if (store.search("foghorn schedule", SearchScope.ALL, 5).isEmpty()) {
                    empty.incrementAndGet();
                }
                searches.incrementAndGet();
            }
        });
        for (long v = 2; v <= 6; v++) {
            store.upsert(List.of(new StoreRecord("d1-v" + v + "-0", "d1", v, "kb", "foghorn schedule, version " + v,
                    null)));
            store.delete(List.of(new io.polyrag.core.model.DocumentVersion("d1", v - 1)));
        }
        done.set(true);
        searcher.join();
        assertThat(searches.get()).isPositive();
        assertThat(empty.get()).isZero();
        assertThat(store.versions()).containsOnlyKeys(new io.polyrag.core.model.DocumentVersion("d1", 6));
    }

    /**
     * The index deleted while polyrag runs: the next write creates it again with polyrag's mapping (its template), not
     * a dynamic one on which every search failed; an index a write made before there was a template is refused at the
     * start, naming the fix.
     */
    @Test
    void an_index_deleted_while_running_comes_back_with_its_mapping_and_a_dynamic_one_is_refused() throws Exception {
        FullTextStore store = open();
        store.upsert(List.of(new StoreRecord("c1", "d1", 1, "kb", "The keepers light the lamps nightly.", null)));
        String index = "t-" + Integer.toHexString(dir.toString().hashCode());
        var http = java.net.http.HttpClient.newHttpClient();
        assertThat(http.send(java.net.http.HttpRequest.newBuilder(java.net.URI.create(TestOpenSearch.url() + "/"
                + index)).DELETE().build(), java.net.http.HttpResponse.BodyHandlers.ofString()).statusCode())
                .isEqualTo(200);
        store.upsert(List.of(new StoreRecord("c2", "d2", 1, "kb", "The keepers log the tides.", null)));
        assertThat(store.search("keepers", new SearchScope(java.util.Set.of("kb")), 5)).extracting(h -> h.chunkId())
                .containsExactly("c2");
        store.close();

        String dynamic = "t-dynamic-" + Integer.toHexString(dir.toString().hashCode());
        assertThat(http.send(java.net.http.HttpRequest.newBuilder(java.net.URI.create(TestOpenSearch.url() + "/"
                + dynamic + "/_doc/x?refresh=true")).header("Content-Type", "application/json")
                .PUT(java.net.http.HttpRequest.BodyPublishers.ofString("{\"chunk_id\": \"x\", \"kb\": \"kb\"}"))
                .build(), java.net.http.HttpResponse.BodyHandlers.ofString()).statusCode()).isBetween(200, 201);
        org.assertj.core.api.Assertions.assertThatThrownBy(() -> new OpenSearchProvider().open(new ProviderContext(
                Config.load(Map.of(), Map.of("opensearch.url", TestOpenSearch.url(), "opensearch.index", dynamic)),
                dir))).isInstanceOf(io.polyrag.core.StoreException.class).hasMessageContaining("not created by polyrag")
                .hasMessageContaining("check --repair");
    }

    @Test
    void changed_bm25_settings_apply_to_an_existing_index() {
        FullTextStore first = open(dir, Map.of());
        first.upsert(List.of(new StoreRecord("c1", "d1", 1, "kb", "short text about tides", null),
                new StoreRecord("c2", "d2", 1, "kb", "tides tides and a much longer text about many other things "
                        + "entirely, sailing, harbours, ropes and knots", null)));
        double before = first.search("tides", SearchScope.ALL, 2).getFirst().score();
        first.close();
        FullTextStore second = open(dir, Map.of("fulltext.bm25.k1", "2.0", "fulltext.bm25.b", "1.0"));
        double after = second.search("tides", SearchScope.ALL, 2).getFirst().score();
        second.close();
        assertThat(after).isNotEqualTo(before);
    }

    /**
     * The node really stopped while a store is open, then started again: meanwhile every call fails fast with an error
     * the ingest and the searcher take for "unreachable" (a job waits, a search lists the leg as degraded), and after
     * it the same store answers, with what was written before, without being reopened.
     */
    @Test
    void a_node_stopped_and_started_again_fails_fast_meanwhile_and_needs_no_reopen() throws Exception {
        try (FullTextStore store = open(dir, Map.of("opensearch.timeout.seconds", "3"))) {
            store.upsert(List.of(rec("c1", "d1", 1, "kb", "the lighthouse keeper logged the tides")));
            assertThat(store.search("tides", SearchScope.ALL, 5)).extracting(h -> h.chunkId()).containsExactly("c1");
            TestOpenSearch.stopped(() -> {
                long t0 = System.nanoTime();
                assertThatThrownBy(() -> store.search("tides", SearchScope.ALL, 5))
                        .satisfies(e -> assertThat(io.polyrag.core.StorageProblems.unreachable(e)).as(e.toString())
                                .isTrue());
                assertThatThrownBy(() -> store.upsert(List.of(rec("c2", "d2", 1, "kb", "written while down"))))
                        .satisfies(e -> assertThat(io.polyrag.core.StorageProblems.unreachable(e)).as(e.toString())
                                .isTrue());
                assertThat((System.nanoTime() - t0) / 1e9).as("seconds to fail both calls").isLessThan(8);
            });
            assertThat(store.search("tides", SearchScope.ALL, 5)).extracting(h -> h.chunkId()).containsExactly("c1");
            store.upsert(List.of(rec("c2", "d2", 1, "kb", "written after the restart about tides")));
            assertThat(store.search("tides", SearchScope.ALL, 5)).extracting(h -> h.chunkId())
                    .containsExactlyInAnyOrder("c1", "c2");
        }
    }

    /**
     * Behind a relay that first answers slowly, then drops every connection: a slow answer is cut off at the request
     * timeout with a clear error, dropped connections fail as unreachable, and once the relay passes traffic again
     * the same store answers.
     */
    @Test
    void a_slow_then_dropped_connection_fails_within_the_timeout_and_recovers() throws Exception {
        java.net.URI node = java.net.URI.create(TestOpenSearch.url());
        try (io.polyrag.testing.TcpProxy proxy = new io.polyrag.testing.TcpProxy(node.getHost(), node.getPort())) {
            Map<String, String> settings = new java.util.HashMap<>(Map.of("opensearch.url", "http://127.0.0.1:"
                    + proxy.port(), "opensearch.index", "t-relay-" + Integer.toHexString(dir.toString().hashCode()),
                    "opensearch.timeout.seconds", "1"));
            try (FullTextStore store = new OpenSearchProvider().open(new ProviderContext(Config.load(Map.of(),
                    settings), dir))) {
                store.upsert(List.of(rec("c1", "d1", 1, "kb", "the ferry timetable for the islands")));
                proxy.slow(java.time.Duration.ofSeconds(4));
                long t0 = System.nanoTime();
                assertThatThrownBy(() -> store.search("ferry", SearchScope.ALL, 5))
                        .isInstanceOf(io.polyrag.core.StoreException.class).hasMessageContaining("OpenSearch");
                assertThat((System.nanoTime() - t0) / 1e9).as("seconds until the slow answer was given up")
                        .isLessThan(3);
                proxy.restore();
                proxy.cut();
                assertThatThrownBy(() -> store.search("ferry", SearchScope.ALL, 5))
                        .satisfies(e -> assertThat(io.polyrag.core.StorageProblems.unreachable(e)).as(e.toString())
                                .isTrue());
                proxy.restore();
                assertThat(store.search("ferry", SearchScope.ALL, 5)).extracting(h -> h.chunkId())
                        .containsExactly("c1");
            }
        }
    }

    @Test
    void an_unreachable_cluster_is_one_line_naming_the_address_and_the_setting() throws Exception {
        int closed;
        try (var socket = new java.net.ServerSocket(0)) {
            closed = socket.getLocalPort();
        }
        assertThatThrownBy(() -> new OpenSearchProvider().open(new ProviderContext(Config.load(Map.of(),
                Map.of("opensearch.url", "http://127.0.0.1:" + closed)), dir)))
                .as("try again later (exit 3), as for every other store, not a configuration error")
                .isInstanceOf(io.polyrag.core.UnavailableException.class)
                .hasMessageStartingWith("cannot reach OpenSearch at http://127.0.0.1:" + closed
                        + " (POLYRAG_OPENSEARCH_URL): ");
    }

    @Test
    void a_long_query_in_a_script_without_spaces_still_searches() {
        FullTextStore store = open();
        store.upsert(List.of(new StoreRecord("c1", "d1", 1, "kb", "灯台の守り人は毎晩ランプを灯した。", null)));
        String essay = "灯台" + "海".repeat(5000);
        assertThat(store.search(essay, SearchScope.ALL, 5)).extracting(h -> h.chunkId()).containsExactly("c1");
    }

    @Test
    void a_bad_url_is_a_configuration_error_naming_the_setting() {
        assertThatThrownBy(() -> new OpenSearchProvider().open(new ProviderContext(Config.load(Map.of(),
                Map.of("opensearch.url", "search:9200")), dir))).hasMessageContaining("POLYRAG_OPENSEARCH_URL");
    }
}
