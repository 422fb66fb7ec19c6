package io.polyrag.client;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.polyrag.app.HttpFrontDoor;
import io.polyrag.app.Polyrag;
import io.polyrag.core.config.Config;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeSet;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.atomic.AtomicInteger;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import tools.jackson.databind.JsonNode;

/** The client against a real polyrag server with API keys, started here: every call, typed, and its errors. */
class PolyragClientTest {
    @TempDir
    static Path tmp;

    private static Polyrag polyrag;
    private static HttpFrontDoor server;
    private static PolyragClient client;
    private static String base;
    private static String key;

    @BeforeAll
    static void start() throws Exception {
        Files.createDirectories(tmp.resolve("notes"));
        polyrag = Polyrag.open(Config.load(Map.of(), Map.of("data.dir", tmp.resolve("data").toString(),
                "sync.tenant.roots", "acme=" + tmp.resolve("notes"))));
        key = polyrag.keys().create("acme", "client test").key();
        server = HttpFrontDoor.start(polyrag, "127.0.0.1", 0, 16 * 1024 * 1024);
        base = "http://127.0.0.1:" + server.port();
        client = PolyragClient.builder().baseUrl(base).apiKey(key).timeout(Duration.ofSeconds(60)).build();
    }

    @AfterAll
    static void stop() {
        if (server != null) {
            server.close();
        }
        if (polyrag != null) {
            polyrag.close();
        }
    }

    @Test
    void every_route_a_tenant_calls_is_a_method_of_the_client() throws Exception {
        // Routes left out, each for its reason: the operator's, the OpenAI-compatible ones (use an OpenAI client),
        // the UI's two-step staging, and what serves machines rather than programs.
        Set<String> outOfScope = Set.of("GET /metrics", "GET /v1/openapi.json", "GET /v1/models",
                "POST /v1/chat/completions", "POST /v1/ingest/upload", "POST /v1/ingest/staged",
                "DELETE /v1/ingest/staged/{id}", "POST /v1/sample-check");
        JsonNode doc = PolyragClient.JSON.readTree(Files.readString(Path.of("..", "docs", "openapi.json")));
        Set<String> routes = new TreeSet<>();
        doc.path("paths").properties().forEach(p -> p.getValue().properties().forEach(m -> {
            String route = m.getKey().toUpperCase(java.util.Locale.ROOT) + " " + p.getKey();
            if (!m.getKey().equals("head") && !p.getKey().startsWith("/v1/admin") && !outOfScope.contains(route)) {
                routes.add(route);
            }
        }));
        assertThat(routes).hasSizeGreaterThan(30);
        assertThat(new TreeSet<>(PolyragClient.ROUTES)).as("a route added to the server needs its client method")
                .containsAll(routes);
        assertThat(routes).as("the client calls only routes the document has").containsAll(PolyragClient.ROUTES);
    }

    /**
     * A key read from a file with its line end works; one with a line break inside is refused without quoting it (the
     * HTTP client's message quoted the whole header). A query value is any text: "." is searched, not refused as an
     * id would be.
     */
    @Test
    void a_keys_line_end_is_stripped_and_a_broken_key_never_quoted() {
        try (PolyragClient fromFile = PolyragClient.builder().baseUrl(base).apiKey(key + "\r\n").build()) {
            assertThat(fromFile.usage().documents()).isNotNegative();
            Throwable dot = org.assertj.core.api.Assertions.catchThrowable(() -> fromFile.search(".", 3));
            assertThat(dot).as("searched, not refused as an id").matches(t -> !(t instanceof IllegalArgumentException));
        }
        assertThatThrownBy(() -> PolyragClient.builder().baseUrl(base).apiKey("sk-secret\nmore").build())
                .isInstanceOf(IllegalArgumentException.class).hasMessageNotContaining("sk-secret");
        // A key file saved with a byte-order mark works; an invisible character pasted inside is refused by its
        // position (the JDK refused it at the first request, quoting the header, key and all).
        try (PolyragClient withBom = PolyragClient.builder().baseUrl(base).apiKey("\uFEFF" + key).build()) {
            assertThat(withBom.usage().documents()).isNotNegative();
        }
        assertThatThrownBy(() -> PolyragClient.builder().baseUrl(base).apiKey("sk-se\u200Bcret").build())
                .isInstanceOf(IllegalArgumentException.class).hasMessageContaining("U+200B at position 5")
                .hasMessageNotContaining("sk-se");
        assertThat(PolyragClient.Search.fitted("alpha beta gamma", 11)).isEqualTo("alpha beta");
        assertThat(PolyragClient.Search.fitted("short", 11)).isEqualTo("short");
    }

    /**
     * An answer from something in front of polyrag (nginx's HTML 413, a login page's 200) says so, with its opening;
     * it said "polyrag answered 413 without a problem description", or threw a parser's exception.
     */
    @Test
    void an_answer_that_is_not_polyrags_says_where_it_came_from() throws Exception {
        com.sun.net.httpserver.HttpServer proxy = com.sun.net.httpserver.HttpServer.create(
                new java.net.InetSocketAddress("127.0.0.1", 0), 0);
        proxy.createContext("/v1/ingest/text", x -> {
            byte[] b = ("<html><head><title>413 Request Entity Too Large</title></head><body><h1>413 Request "
                    + "Entity Too Large</h1><hr>nginx</body></html>").getBytes();
            x.getResponseHeaders().add("Content-Type", "text/html");
            x.getResponseHeaders().add("Server", "nginx");
            x.sendResponseHeaders(413, b.length);
            x.getResponseBody().write(b);
            x.close();
        });
        proxy.createContext("/v1/usage", x -> {
            byte[] b = "<html><body>Sign in</body></html>".getBytes();
            x.getResponseHeaders().add("Content-Type", "text/html");
            x.sendResponseHeaders(200, b.length);
            x.getResponseBody().write(b);
            x.close();
        });
        proxy.start();
        try (PolyragClient c = PolyragClient.builder().baseUrl("http://127.0.0.1:" + proxy.getAddress().getPort())
                .retries(0).build()) {
            assertThatThrownBy(() -> c.ingestText("x", "t", "u", "kb")).isInstanceOf(PolyragApiException.class)
                    .hasMessageContaining("Request Entity Too Large").hasMessageContaining("nginx")
                    .hasMessageContaining("client_max_body_size");
            assertThatThrownBy(c::usage).isInstanceOf(PolyragApiException.class).hasMessageContaining("text/html")
                    .hasMessageContaining("base URL");
        } finally {
            proxy.stop(0);
        }
    }

    /** An upload's time is added to the timeout: 2 MB the server reads for several seconds, with a 1 s timeout. */
    @Test
    void an_upload_longer_than_the_timeout_is_not_cut_off() throws Exception {
        Path big = Files.write(tmp.resolve("big.txt"), "word ".repeat(400_000).getBytes());
        com.sun.net.httpserver.HttpServer slow = com.sun.net.httpserver.HttpServer.create(
                new java.net.InetSocketAddress("127.0.0.1", 0), 0);
        slow.createContext("/v1/ingest/files", x -> {
            byte[] buf = new byte[64 * 1024];
            try (var in = x.getRequestBody()) {
                long read = 0;
                for (int n = in.read(buf); n >= 0; n = in.read(buf)) {
                    // About 500 KB/s: 2 MB take some 4 s.
                    if ((read + n) / 65_536 > read / 65_536) {
                        Thread.sleep(125);
                    }
                    read += n;
                }
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
            }
            byte[] b = "{\"job_id\": \"j1\", \"status\": \"queued\", \"files\": 1, \"location\": \"/v1/jobs/j1\"}"
                    .getBytes();
            x.getResponseHeaders().add("Content-Type", "application/json");
            x.sendResponseHeaders(202, b.length);
            x.getResponseBody().write(b);
            x.close();
        });
        slow.start();
        try (PolyragClient c = PolyragClient.builder().baseUrl("http://127.0.0.1:" + slow.getAddress().getPort())
                .timeout(Duration.ofSeconds(1)).retries(0).build()) {
            assertThat(c.ingestFiles(List.of(big), "kb").jobId()).isEqualTo("j1");
        } finally {
            slow.stop(0);
        }
    }

    /**
     * A download longer than the timeout whose bytes keep coming is not cut off (2 s of bytes with a 1 s timeout);
     * one that goes silent for the timeout is given up, saying so.
     */
    @Test
    void a_download_longer_than_the_timeout_is_not_cut_off_and_a_silent_one_is_given_up() throws Exception {
        com.sun.net.httpserver.HttpServer slow = com.sun.net.httpserver.HttpServer.create(
                new java.net.InetSocketAddress("127.0.0.1", 0), 0);
        slow.createContext("/v1/documents/", x -> {
            boolean stall = x.getRequestURI().getPath().contains("stalls");
            x.getResponseHeaders().add("Content-Type", "application/pdf");
            x.sendResponseHeaders(200, 0);
            try (var out = x.getResponseBody()) {
                for (int i = 0; i < 5; i++) {
                    out.write(new byte[1000]);
                    out.flush();
                    Thread.sleep(stall && i == 1 ? 3_000 : 400);
                }
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
            } catch (java.io.IOException e) {
                // the client gave up
            }
        });
        slow.start();
        try (PolyragClient c = PolyragClient.builder().baseUrl("http://127.0.0.1:" + slow.getAddress().getPort())
                .timeout(Duration.ofSeconds(1)).retries(0).build()) {
            assertThat(c.content("big").bytes()).hasSize(5000);
            assertThatThrownBy(() -> c.content("stalls")).isInstanceOf(PolyragApiException.class)
                    .hasMessageContaining("sent nothing for 1000 ms");
        } finally {
            slow.stop(0);
        }
    }

    /** A DELETE answered by a gateway's 502 is not sent again: the first may have run, and the second said 404. */
    @Test
    void a_delete_that_may_have_run_is_not_sent_again() throws Exception {
        java.util.concurrent.atomic.AtomicInteger deletes = new java.util.concurrent.atomic.AtomicInteger();
        com.sun.net.httpserver.HttpServer gateway = com.sun.net.httpserver.HttpServer.create(
                new java.net.InetSocketAddress("127.0.0.1", 0), 0);
        gateway.createContext("/v1/documents/x", x -> {
            int n = deletes.incrementAndGet();
            x.sendResponseHeaders(n == 1 ? 502 : 404, -1);
            x.close();
        });
        gateway.start();
        try (PolyragClient c = PolyragClient.builder().baseUrl("http://127.0.0.1:" + gateway.getAddress().getPort())
                .retries(2).build()) {
            var e = org.assertj.core.api.Assertions.catchThrowableOfType(PolyragApiException.class,
                    () -> c.deleteDocument("x"));
            assertThat(e.status()).isEqualTo(502);
            assertThat(deletes).hasValue(1);
        } finally {
            gateway.stop(0);
        }
    }

    @Test
    void search_answers_and_streamed_answers_are_typed() {
        var report = client.ingestText("After about twelve hours the levain should be bubbly and smell sweet.",
                "Levain", "note:levain", "recipes");
        assertThat(report.added()).isEqualTo(1);
        var results = client.search(PolyragClient.Search.of("how long does the levain rest").topK(3)
                .knowledgeBases("recipes").explain(true));
        assertThat(results.hits()).isNotEmpty();
        PolyragClient.Hit top = results.hits().getFirst();
        assertThat(top.title()).isEqualTo("Levain");
        assertThat(top.knowledgeBase()).isEqualTo("recipes");
        assertThat(top.retrievers()).containsKeys("vector", "fulltext");
        assertThat(top.retrievers().get("fulltext").rank()).isEqualTo(1);
        assertThat(top.explain()).as("explain's per-retriever contributions reach the client").isNotNull();
        assertThat(top.explain().contributions()).containsKeys("vector", "fulltext");
        assertThat(top.explain().contributions().values().stream().mapToDouble(Double::doubleValue).sum())
                .isCloseTo(top.explain().score(), org.assertj.core.data.Offset.offset(1e-9));
        assertThat(top.figures()).isEmpty();
        assertThat(client.search("levain bubbly", 2).hits()).allSatisfy(h -> assertThat(h.explain()).isNull());
        assertThat(client.search(PolyragClient.Search.of("levain bubbly").knowledgeBases("recipes").candidates(5)
                .fulltextDocumentWeight(1).vectorDocumentWeight(0.25).explain(true)).fusion()).contains(
                        "each leg's list 5 deep",
                        "weight 1.00 (this search's)");
        PolyragClient.Usage usage = client.usage();
        assertThat(usage.documents()).isPositive();
        assertThat(usage.storedBytes()).isPositive();
        assertThat(usage.usage()).anySatisfy(u -> {
            assertThat(u.metric()).isEqualTo("searches");
            assertThat(u.amount()).isGreaterThanOrEqualTo(2);
        });
        assertThat(usage.quotas().searchesPerMinute()).isNull();
        assertThat(client.usage(java.time.LocalDate.of(2000, 1, 1), java.time.LocalDate.of(2000, 1, 31)).usage())
                .as("nothing counted then").isEmpty();

        var answer = client.query(PolyragClient.Search.of("How long should the levain rest?").knowledgeBases(
                "recipes"));
        assertThat(answer.answer()).contains("twelve hours").contains("[1]");
        assertThat(answer.sources().getFirst().passages()).isNotEmpty();
        assertThat(answer.sources().getFirst().figures()).as("a source's figures reach the client").isNotNull();
        assertThat(client.query(PolyragClient.Search.of("How long should the levain rest?").knowledgeBases(
                "recipes").route(true)).route()).as("what the router decided").isNotNull();
        assertThat(report.extractionTokens()).isZero();
        List<String> tokens = new ArrayList<>();
        var streamed = client.query(PolyragClient.Search.of("How long should the levain rest?").knowledgeBases(
                "recipes"), tokens::add);
        assertThat(String.join("", tokens)).isEqualTo(streamed.answer());
        assertThat(streamed.sources()).hasSize(answer.sources().size());

        var opening = client.query(PolyragClient.Search.of("How long should the levain rest?").knowledgeBases(
                "recipes").conversationId("chat-7"));
        assertThat(opening.conversationId()).isEqualTo("chat-7");
        var followUp = client.query(PolyragClient.Search.of("And how does it smell?").knowledgeBases("recipes")
                .conversationId("chat-7"));
        assertThat(followUp.rewrittenQuery()).contains("levain");
        assertThat(client.conversations(0, 10)).extracting(PolyragClient.Conversation::id).contains("chat-7");
        assertThat(client.conversation("chat-7").messages()).hasSize(4);
        assertThat(client.conversation("chat-7").updatedAt()).as("snake_case on the wire").isNotNull();
        client.deleteConversation("chat-7");
        assertThat(client.conversations(0, 10)).extracting(PolyragClient.Conversation::id).doesNotContain("chat-7");

        // Judged queries, named by the document's URI; an evaluation on them; tuning needs 20.
        assertThat(client.addJudgments("recipes", List.of(new PolyragClient.Judgment("levain", "when is the levain "
                + "ready", Map.of("note:levain", 1))))).isEqualTo(1);
        assertThat(client.judgments("recipes")).singleElement().satisfies(j -> {
            assertThat(j.queryId()).isEqualTo("levain");
            assertThat(j.relevant()).containsValue(1).hasSize(1);
        });
        assertThat(client.evaluation("recipes", false).path("runs").get(0).path("name").asString())
                .isEqualTo("configured");
        assertThat(client.evaluation("recipes", true).path("queries").asInt()).isEqualTo(1);
        assertThatThrownBy(() -> client.tune("recipes")).isInstanceOf(PolyragApiException.class)
                .hasMessageContaining("at least 20");
        assertThat(client.deleteJudgments("recipes", null)).isEqualTo(1);
    }

    @Test
    void files_jobs_documents_and_knowledge_bases() throws Exception {
        Path a = Files.writeString(tmp.resolve("kiln.md"), "# Kiln\n\nThe kiln is fired on Thursdays.");
        List<PolyragClient.JobEvent> events = new CopyOnWriteArrayList<>();
        Thread listener = Thread.ofVirtual().start(() -> client.events(0, e -> {
            events.add(e);
            return !(e.type().equals("finished"));
        }));
        Thread.sleep(300);
        var accepted = client.ingestFiles(List.of(a), "studio");
        var job = client.awaitJob(accepted.jobId(), Duration.ofSeconds(60));
        assertThat(job.status()).isEqualTo("succeeded");
        assertThat(job.knowledgeBase()).isEqualTo("studio");
        assertThat(job.progress().added()).isEqualTo(1);
        listener.join(Duration.ofSeconds(30));
        assertThat(events).extracting(PolyragClient.JobEvent::type).contains("finished");
        assertThat(events.getLast().job().id()).isEqualTo(accepted.jobId());
        assertThat(client.jobs(0, 10)).extracting(PolyragClient.Job::id).contains(accepted.jobId());
        var refused = org.assertj.core.api.Assertions.catchThrowableOfType(PolyragApiException.class,
                () -> client.cancelJob(accepted.jobId()));
        assertThat(refused.status()).isEqualTo(409);
        // A file that cannot be read is said so before anything is sent, not as a server that did not answer.
        int jobsBefore = client.jobs(0, 100).size();
        assertThat(org.assertj.core.api.Assertions.catchThrowable(() -> client.ingestFiles(List.of(a, tmp),
                "studio"))).isInstanceOf(IllegalArgumentException.class).hasMessageContaining("cannot read " + tmp);
        assertThat(client.jobs(0, 100)).as("nothing was sent").hasSize(jobsBefore);

        var uploaded = client.upload(Files.writeString(tmp.resolve("glaze é+1.md"), "# Glaze\n\nGlazes are mixed on "
                + "Mondays."), "studio", Map.of("title", "Glazing", "categories", "studio"));
        client.awaitJob(uploaded.jobId(), Duration.ofSeconds(60));
        var page = client.documents("studio", 0, 10);
        assertThat(page.total()).isEqualTo(2);
        var detail = client.document(uploaded.documentId());
        assertThat(detail.document().title()).isEqualTo("Glazing");
        assertThat(detail.document().original()).isTrue();
        assertThat(detail.stores()).containsKeys("vector", "fulltext");
        var content = client.content(uploaded.documentId());
        assertThat(new String(content.bytes(), StandardCharsets.UTF_8)).contains("Glazes are mixed on Mondays");
        assertThat(content.fileName()).isEqualTo("glaze é+1.md");

        assertThat(client.knowledgeBases()).extracting(PolyragClient.KnowledgeBase::name).contains("studio");
        assertThat(client.createKnowledgeBase("archive", "old things").description()).isEqualTo("old things");
        assertThat(client.knowledgeBase("archive").documents()).isZero();
        client.deleteKnowledgeBase("archive", false);
        var missing = org.assertj.core.api.Assertions.catchThrowableOfType(PolyragApiException.class,
                () -> client.search(PolyragClient.Search.of("kiln").knowledgeBases("archive")));
        assertThat(missing.status()).isEqualTo(404);
        assertThat(missing.detail()).contains("archive");
        client.deleteDocument(uploaded.documentId());
        assertThat(client.documents("studio", 0, 10).total()).isEqualTo(1);
        assertThat(client.formats().path("extensions").toString()).contains("md");
        assertThat(client.ready()).isTrue();
    }

    @Test
    void sync_sources_are_added_paused_edited_run_and_removed() throws Exception {
        Files.writeString(tmp.resolve("notes").resolve("wheel.md"), "# Wheel\n\nThe wheel is serviced in May.");
        var added = client.addSource("notes", "filesystem", Map.of("root", tmp.resolve("notes").toString()),
                "workshop", 3600);
        assertThat(client.awaitJob(added.jobId(), Duration.ofSeconds(60)).status()).isEqualTo("succeeded");
        assertThat(client.sources()).extracting(PolyragClient.SyncSource::sourceId).containsExactly("notes");
        assertThat(client.enableSource("notes", false).source().enabled()).isFalse();
        assertThat(client.enableSource("notes", true).source().enabled()).isTrue();
        var updated = client.updateSource("notes", "filesystem", Map.of("root", tmp.resolve("notes").toString()),
                "workshop", 7200, true);
        assertThat(updated.source().intervalSeconds()).isEqualTo(7200);
        assertThat(client.awaitJob(client.syncNow("notes"), Duration.ofSeconds(60)).progress().unchanged())
                .isEqualTo(1);
        assertThat(client.source("notes").items()).isEqualTo(1);
        // A sync with its own cap on deletes; a cap out of range is the caller's error, named.
        assertThat(client.awaitJob(client.syncNow("notes", 100), Duration.ofSeconds(60)).status())
                .isEqualTo("succeeded");
        assertThatThrownBy(() -> client.syncNow("notes", 101)).isInstanceOf(PolyragApiException.class)
                .hasMessageContaining("'max_delete_percent' must be from 1 to 100")
                .satisfies(e -> assertThat(((PolyragApiException) e).status()).isEqualTo(400));
        client.deleteSource("notes", true);
        assertThat(client.sources()).isEmpty();
    }

    @Test
    void a_missing_key_is_a_401_and_transient_failures_are_tried_again() throws Exception {
        var anonymous = PolyragClient.builder().baseUrl(base).build();
        var refused = org.assertj.core.api.Assertions.catchThrowableOfType(PolyragApiException.class,
                () -> anonymous.search("kiln", 3));
        assertThat(refused.status()).isEqualTo(401);
        assertThat(refused.transientFailure()).isFalse();
        // A server that is briefly unavailable: two 503s, then an answer.
        AtomicInteger calls = new AtomicInteger();
        com.sun.net.httpserver.HttpServer flaky = com.sun.net.httpserver.HttpServer.create(
                new java.net.InetSocketAddress("127.0.0.1", 0), 0);
        flaky.createContext("/", x -> {
            String text = calls.incrementAndGet() <= 2 ? "{\"type\":\"about:blank\",\"title\":\"Service "
                    + "Unavailable\",\"status\":503,\"detail\":\"warming up\"}" : "{\"status\":\"ok\"}";
            byte[] body = text.getBytes(StandardCharsets.UTF_8);
            x.getResponseHeaders().add("Content-Type", "application/json");
            x.sendResponseHeaders(calls.get() <= 2 ? 503 : 200, body.length);
            x.getResponseBody().write(body);
            x.close();
        });
        flaky.start();
        try {
            String url = "http://127.0.0.1:" + flaky.getAddress().getPort();
            assertThat(PolyragClient.builder().baseUrl(url).retries(2).build().health().path("status").asString())
                    .isEqualTo("ok");
            assertThat(calls.get()).isEqualTo(3);
            calls.set(0);
            var once = org.assertj.core.api.Assertions.catchThrowableOfType(PolyragApiException.class,
                    () -> PolyragClient.builder().baseUrl(url).retries(0).build().health());
            assertThat(once.status()).isEqualTo(503);
            assertThat(once.detail()).isEqualTo("warming up");
            assertThat(once.transientFailure()).isTrue();
        } finally {
            flaky.stop(0);
        }
        assertThatThrownBy(() -> PolyragClient.builder().baseUrl("localhost:8080").build())
                .isInstanceOf(IllegalArgumentException.class).hasMessageContaining("http");
    }

    /** A streamed answer whose server goes silent after one token is given up at the timeout, not waited on for ever. */
    @Test
    void a_stream_that_goes_silent_is_given_up_at_the_timeout() throws Exception {
        com.sun.net.httpserver.HttpServer stalling = com.sun.net.httpserver.HttpServer.create(
                new java.net.InetSocketAddress("127.0.0.1", 0), 0);
        java.util.concurrent.CountDownLatch release = new java.util.concurrent.CountDownLatch(1);
        stalling.createContext("/", x -> {
            x.getResponseHeaders().add("Content-Type", "text/event-stream");
            x.sendResponseHeaders(200, 0);
            x.getResponseBody().write("event: token\ndata: {\"text\": \"The \"}\n\n".getBytes(
                    StandardCharsets.UTF_8));
            x.getResponseBody().flush();
            try {
                release.await(30, java.util.concurrent.TimeUnit.SECONDS);
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
            }
            x.close();
        });
        stalling.start();
        try {
            var client = PolyragClient.builder().baseUrl("http://127.0.0.1:" + stalling.getAddress().getPort())
                    .timeout(java.time.Duration.ofSeconds(3)).build(); // 1 s: a loaded CI sent no headers in it
            java.util.List<String> tokens = new java.util.ArrayList<>();
            long start = System.nanoTime();
            assertThatThrownBy(() -> client.query(PolyragClient.Search.of("kiln"), tokens::add))
                    .isInstanceOf(PolyragApiException.class).hasMessageContaining("sent nothing for 3 s");
            assertThat(tokens).containsExactly("The ");
            assertThat(System.nanoTime() - start).isLessThan(10_000_000_000L);
        } finally {
            release.countDown();
            stalling.stop(0);
        }
    }

    /**
     * A body that stalls after its headers, and a streamed answer whose headers never come, end at the timeout; a
     * search (which changes nothing) is tried again after a gateway's 502; a Retry-After longer than the client waits
     * is the 429 at once; a search no retriever answered is not an empty result to a framework.
     */
    @Test
    void stalls_end_at_the_timeout_and_a_search_is_retried_like_a_read() throws Exception {
        AtomicInteger searches = new AtomicInteger();
        AtomicInteger limited = new AtomicInteger();
        AtomicInteger creates = new AtomicInteger();
        java.util.concurrent.CountDownLatch release = new java.util.concurrent.CountDownLatch(1);
        com.sun.net.httpserver.HttpServer stub = com.sun.net.httpserver.HttpServer.create(
                new java.net.InetSocketAddress("127.0.0.1", 0), 0);
        stub.createContext("/", x -> {
            String path = x.getRequestURI().getPath();
            x.getRequestBody().readAllBytes();
            x.getResponseHeaders().add("Content-Type", "application/json");
            if (path.equals("/v1/search")) {
                boolean first = searches.incrementAndGet() == 1;
                byte[] body = (first ? "<html>bad gateway</html>" : "{\"query\":\"kiln\",\"modalities\":"
                        + "[\"vector\",\"fulltext\"],\"degraded\":[{\"modality\":\"vector\",\"reason\":\"down\"},"
                        + "{\"modality\":\"fulltext\",\"reason\":\"timed out\"}],\"hits\":[]}")
                        .getBytes(StandardCharsets.UTF_8);
                x.sendResponseHeaders(first ? 502 : 200, body.length);
                x.getResponseBody().write(body);
            } else if (path.equals("/v1/knowledge-bases")) { // a proxy's bare 503: the create may have run
                creates.incrementAndGet();
                byte[] body = "<html>upstream reset</html>".getBytes(StandardCharsets.UTF_8);
                x.sendResponseHeaders(503, body.length);
                x.getResponseBody().write(body);
            } else if (path.equals("/v1/usage")) {
                limited.incrementAndGet();
                x.getResponseHeaders().add("Retry-After", "3600");
                byte[] body = "{\"status\":429,\"title\":\"Too Many Requests\",\"detail\":\"quota\"}"
                        .getBytes(StandardCharsets.UTF_8);
                x.sendResponseHeaders(429, body.length);
                x.getResponseBody().write(body);
            } else {
                try {
                    if (path.startsWith("/v1/documents/")) { // headers and ten bytes of a thousand, then nothing
                        x.sendResponseHeaders(200, 1000);
                        x.getResponseBody().write("{\"id\":\"x\",".getBytes(StandardCharsets.UTF_8));
                        x.getResponseBody().flush();
                    }
                    release.await(30, java.util.concurrent.TimeUnit.SECONDS); // /v1/query: no headers at all
                } catch (InterruptedException e) {
                    Thread.currentThread().interrupt();
                }
            }
            x.close();
        });
        stub.setExecutor(java.util.concurrent.Executors.newCachedThreadPool());
        stub.start();
        try {
            var client = PolyragClient.builder().baseUrl("http://127.0.0.1:" + stub.getAddress().getPort())
                    .timeout(Duration.ofSeconds(1)).retries(1).build();
            long start = System.nanoTime();
            assertThatThrownBy(() -> client.document("x")).isInstanceOf(PolyragApiException.class)
                    .hasMessageContaining("within 1000 ms");
            assertThatThrownBy(() -> client.query(PolyragClient.Search.of("kiln"), t -> { }))
                    .isInstanceOf(PolyragApiException.class).hasMessageContaining("within 1000 ms");
            assertThat(System.nanoTime() - start).isLessThan(8_000_000_000L);

            PolyragClient.SearchResults results = client.search(PolyragClient.Search.of("kiln"));
            assertThat(searches.get()).isEqualTo(2);
            assertThat(results.unanswered()).isTrue();
            assertThatThrownBy(results::requireAnswered).isInstanceOf(PolyragApiException.class)
                    .hasMessageContaining("no retriever answered: vector (down) fulltext (timed out)")
                    .extracting(e -> ((PolyragApiException) e).status()).isEqualTo(503);

            start = System.nanoTime();
            var quota = org.assertj.core.api.Assertions.catchThrowableOfType(PolyragApiException.class,
                    client::usage);
            assertThat(quota.status()).isEqualTo(429);
            assertThat(quota.retryAfterSeconds()).as("the wait, for the caller").isEqualTo(3600);
            assertThat(limited.get()).isEqualTo(1);
            // A change answered by a bare 503 (no Retry-After: not polyrag's own) is not sent again.
            assertThatThrownBy(() -> client.createKnowledgeBase("kiln", "")).isInstanceOf(PolyragApiException.class);
            assertThat(creates.get()).isEqualTo(1);
            assertThat(System.nanoTime() - start).isLessThan(5_000_000_000L);
        } finally {
            release.countDown();
            stub.stop(0);
        }
    }

    /**
     * ready() asks once (a 503 is its answer, not a failure to retry); close() ends an event stream being read on
     * another thread instead of waiting for it; a Search made for an answer (route on) also searches.
     */
    @Test
    void ready_asks_once_close_ends_an_open_stream_and_a_routed_search_searches() throws Exception {
        AtomicInteger readies = new AtomicInteger();
        com.sun.net.httpserver.HttpServer stub = com.sun.net.httpserver.HttpServer.create(
                new java.net.InetSocketAddress("127.0.0.1", 0), 0);
        stub.setExecutor(java.util.concurrent.Executors.newCachedThreadPool());
        stub.createContext("/ready", x -> {
            readies.incrementAndGet();
            byte[] body = "{\"status\":503,\"title\":\"Service Unavailable\",\"detail\":\"loading\"}"
                    .getBytes(StandardCharsets.UTF_8);
            x.getResponseHeaders().add("Content-Type", "application/problem+json");
            x.getResponseHeaders().add("Retry-After", "1");
            x.sendResponseHeaders(503, body.length);
            x.getResponseBody().write(body);
            x.close();
        });
        stub.createContext("/v1/events", x -> {
            x.getResponseHeaders().add("Content-Type", "text/event-stream");
            x.sendResponseHeaders(200, 0);
            try {
                for (int i = 0; i < 600; i++) {
                    x.getResponseBody().write(": heartbeat\n\n".getBytes(StandardCharsets.UTF_8));
                    x.getResponseBody().flush();
                    Thread.sleep(100);
                }
            } catch (java.io.IOException | InterruptedException e) {
                // the client went
            } finally {
                x.close();
            }
        });
        stub.start();
        try {
            PolyragClient c = PolyragClient.builder().baseUrl("http://127.0.0.1:" + stub.getAddress().getPort())
                    .retries(2).build();
            assertThat(c.ready()).isFalse();
            assertThat(readies.get()).as("asked once").isEqualTo(1);
            Thread reader = Thread.ofVirtual().start(() -> {
                try {
                    c.events(0, e -> true);
                } catch (RuntimeException e) {
                    // ended by close
                }
            });
            Thread.sleep(500);
            var closing = java.util.concurrent.CompletableFuture.runAsync(c::close);
            closing.get(10, java.util.concurrent.TimeUnit.SECONDS);
            reader.join(10_000);
            assertThat(reader.isAlive()).isFalse();
        } finally {
            stub.stop(0);
        }
        assertThat(client.search(PolyragClient.Search.of("kiln").route(true))).isNotNull();
    }

    /** A server that takes the connection and never answers: close() ends the stream waiting for its headers. */
    @Test
    void close_ends_an_event_stream_still_waiting_for_its_headers() throws Exception {
        com.sun.net.httpserver.HttpServer mute = com.sun.net.httpserver.HttpServer.create(
                new java.net.InetSocketAddress("127.0.0.1", 0), 0);
        mute.setExecutor(java.util.concurrent.Executors.newCachedThreadPool());
        java.util.concurrent.CountDownLatch asked = new java.util.concurrent.CountDownLatch(1);
        mute.createContext("/v1/events", x -> {
            asked.countDown();
            try {
                Thread.sleep(120_000);
            } catch (InterruptedException e) {
                // stopped
            }
            x.close();
        });
        mute.start();
        try {
            PolyragClient c = PolyragClient.builder().baseUrl("http://127.0.0.1:" + mute.getAddress().getPort())
                    .build();
            Thread reader = Thread.ofVirtual().start(() -> {
                try {
                    c.events(0, e -> true);
                } catch (RuntimeException e) {
                    // ended by close
                }
            });
            assertThat(asked.await(10, java.util.concurrent.TimeUnit.SECONDS)).isTrue();
            java.util.concurrent.CompletableFuture.runAsync(c::close).get(10, java.util.concurrent.TimeUnit.SECONDS);
            reader.join(10_000);
            assertThat(reader.isAlive()).isFalse();
        } finally {
            mute.stop(0);
        }
    }
}
