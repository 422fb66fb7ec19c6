package io.polyrag.server;

import static org.assertj.core.api.Assertions.assertThat;

import io.polyrag.app.Json;
import io.polyrag.app.Polyrag;
import io.polyrag.core.config.Config;
import java.io.IOException;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;
import io.polyrag.testing.TestServices;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import tools.jackson.databind.JsonNode;

/**
 * The web UI in a real browser: {@code ui/e2e/e2e.mjs} drives Debian's Chromium through playwright-core against a
 * real server with an API key — the 401 state, an upload's staging verdict, the frozen snapshot, processing to the
 * end, search, a streamed answer and its citation, state across tab switches, documents with per-store status, the
 * graph drawn and expanded — then a server in local (no-key) mode. It fails on any console error or warning, or on
 * a serious or critical axe-core (WCAG 2.1 AA) violation in any view, and saves a screenshot of every tab under
 * {@code server/target/ui-screenshots}.
 */
class WebUiTest {
    private static final Path UI = Path.of("").toAbsolutePath().getParent().resolve("ui");
    private static final Path SHOTS = Path.of("target/ui-screenshots").toAbsolutePath();
    private static final Path CHROMIUM = Path.of(System.getProperty("polyrag.chromium", "/usr/bin/chromium"));

    @TempDir
    Path tmp;

    @Test
    void a_user_uploads_watches_searches_asks_opens_a_citation_and_draws_the_graph_in_a_real_browser()
            throws IOException, InterruptedException {
        require();
        Path good = tmp.resolve("curie.md");
        Files.writeString(good, """
                # Marie Curie

                Marie Curie worked at the Radium Institute in Paris, where she studied radioactivity.
                Marie Curie was born in Warsaw. Pierre Curie married Marie Curie in Paris.

                ## The institute

                The Radium Institute was founded in Paris by the University of Paris and the Pasteur Institute.
                """);
        Path empty = tmp.resolve("empty.txt");
        Files.writeString(empty, "");
        // A small site on loopback for the web source form (non-public addresses allowed for it).
        com.sun.net.httpserver.HttpServer site = com.sun.net.httpserver.HttpServer.create(
                new java.net.InetSocketAddress("127.0.0.1", 0), 0);
        site.createContext("/", x -> {
            String body = x.getRequestURI().getPath().equals("/") ? "<html><head><title>Foghorns</title></head><body>"
                    + "<p>The Quillon foghorn sounds twice a minute.</p><a href=\"/horn.html\">horn</a></body></html>"
                    : x.getRequestURI().getPath().equals("/horn.html") ? "<html><head><title>Horn</title></head><body>"
                    + "<p>The horn is a Rayleigh siren.</p></body></html>" : null;
            if (body == null) {
                x.sendResponseHeaders(404, -1);
            } else {
                byte[] b = body.getBytes(StandardCharsets.UTF_8);
                x.getResponseHeaders().add("Content-Type", "text/html");
                x.sendResponseHeaders(200, b.length);
                x.getResponseBody().write(b);
            }
            x.close();
        });
        site.start();
        try (Polyrag polyrag = Polyrag.open(Config.load(Map.of(), Map.of("data.dir", tmp.resolve("data").toString(),
                "graph.enabled", "true", "sync.web.allow.private", "true")))) {
            String key = polyrag.keys().create("acme", "browser test").key();
            RestServer server = new RestServer(polyrag, "127.0.0.1", 0, 16 * 1024 * 1024);
            try {
                String url = "http://127.0.0.1:" + server.port() + "/";
                HttpResponse<String> index = HttpClient.newHttpClient().send(HttpRequest.newBuilder(URI.create(url))
                        .build(), HttpResponse.BodyHandlers.ofString());
                assertThat(index.statusCode()).isEqualTo(200);
                assertThat(index.body()).contains("<div id=\"root\">");
                assertThat(index.headers().firstValue("Content-Security-Policy")).hasValue(WebUi.CSP);
                JsonNode r = e2e("full", url, key, Map.of("POLYRAG_TEST_E2E_SITE", "http://127.0.0.1:"
                        + site.getAddress().getPort() + "/"), good.toString(), empty.toString());
                assertThat(r.get("unauthorizedShown").asBoolean()).isTrue();
                assertThat(r.get("axeChecked").asInt()).as("axe-core ran on every screenshot").isEqualTo(10);
                assertThat(r.get("themedShots").asInt()).as("every tab at 1280 and 390 px in both themes, axe clean")
                        .isEqualTo(24);
                assertThat(r.get("overflowX").size()).as("nothing wider than the window: " + r.get("overflowX"))
                        .isZero();
                assertThat(r.get("sourcesListed").asInt()).as("the web source in the sources list").isEqualTo(1);
                assertThat(r.get("sourcePaused").asBoolean()).isTrue();
                assertThat(r.get("sourceResumed").asBoolean()).isTrue();
                assertThat(r.get("emptyState").asBoolean()).isTrue();
                assertThat(r.get("accepted").asInt()).isEqualTo(1);
                assertThat(r.get("skipped").asInt()).isEqualTo(1);
                assertThat(r.get("skippedReason").asString()).contains("empty.txt").contains("empty");
                assertThat(r.get("snapshotKept").asBoolean()).isTrue();
                assertThat(r.get("syncToggleForUpload").asInt()).as("uploads cannot detect changes").isZero();
                assertThat(r.get("skipGraphToggle").asInt()).isEqualTo(1);
                assertThat(r.get("finalStatus").asString()).isEqualTo("succeeded");
                assertThat(r.get("webSyncToggle").asInt()).as("a web site can stay in sync").isEqualTo(1);
                assertThat(r.get("webRuns").asInt()).as("the upload and the crawl").isEqualTo(2);
                assertThat(r.get("progress").asString()).isEqualTo("100");
                assertThat(r.get("hits").asInt()).isPositive();
                assertThat(r.get("marked").asInt()).as("query terms highlighted").isPositive();
                assertThat(r.get("modalityChips").asInt()).as("per-modality ranks").isPositive();
                assertThat(r.get("answer").asString()).contains("Radium Institute").contains("[1]");
                assertThat(r.get("citationPassages").asInt()).isPositive();
                assertThat(r.get("queryKept").asString()).isEqualTo("Radium Institute Paris");
                assertThat(r.get("hitsKept").asInt()).isEqualTo(r.get("hits").asInt());
                assertThat(r.get("draftKept").asString()).isEqualTo("an unsent draft");
                assertThat(r.get("turnsKept").asInt()).isEqualTo(1);
                assertThat(r.get("documents").asInt()).as("the upload and the site's two pages").isEqualTo(3);
                assertThat(r.get("stores").toString()).contains("vector").contains("fulltext").contains("graph");
                assertThat(r.get("graphNodes").asInt()).isGreaterThan(1);
                assertThat(r.get("graphNodesAfterExpand").asInt()).isGreaterThanOrEqualTo(r.get("graphNodes")
                        .asInt());
                assertThat(r.get("graphEdges").asInt()).isPositive();
                assertThat(r.get("graphExpanded").asInt()).as("the picked entity and the one clicked").isEqualTo(2);
            } finally {
                server.close();
            }
        } finally {
            site.stop(0);
        }
        for (String tab : List.of("sources", "processing", "search", "chat", "knowledge-bases", "graph")) {
            assertThat(SHOTS.resolve(tab + ".png")).isNotEmptyFile();
            for (String width : List.of("1280", "390")) {
                for (String theme : List.of("light", "dark")) {
                    assertThat(SHOTS.resolve(tab + "-" + width + "-" + theme + ".png")).isNotEmptyFile();
                }
            }
        }
    }

    @Test
    void the_ui_works_without_keys_on_a_local_server() throws IOException, InterruptedException {
        require();
        try (Polyrag polyrag = Polyrag.open(Config.load(Map.of(), Map.of("data.dir", tmp.resolve("data")
                .toString())))) {
            polyrag.ingest().text(new io.polyrag.app.api.TextIngest("polyrag serves its web UI at the root path.",
                    "UI", null, null, io.polyrag.core.model.KnowledgeBase.DEFAULT));
            polyrag.ingest().items(List.of(new io.polyrag.core.model.SourceItem("file:///report.pdf", "report.pdf",
                    io.polyrag.testing.DocumentFixtures.figuresPdf(), null)), io.polyrag.core.model.KnowledgeBase.DEFAULT,
                    p -> { });
            RestServer server = new RestServer(polyrag, "127.0.0.1", 0, 1024 * 1024);
            try {
                JsonNode r = e2e("local", "http://127.0.0.1:" + server.port() + "/", "", Map.of());
                assertThat(r.get("localHits").asInt()).isPositive();
                assertThat(r.get("figureWidth").asInt()).as("the chart's image, decoded by the browser").isPositive();
                assertThat(r.get("figureCaption").asString()).startsWith("Figure 1: Quarterly sales by region");
            } finally {
                server.close();
            }
        }
    }

    private JsonNode e2e(String mode, String url, String key, Map<String, String> env, String... files)
            throws IOException, InterruptedException {
        Files.createDirectories(SHOTS);
        List<String> command = new ArrayList<>(List.of("node", UI.resolve("e2e/e2e.mjs").toString(), mode, url,
                SHOTS.toString(), key));
        command.addAll(List.of(files));
        ProcessBuilder pb = new ProcessBuilder(command).directory(UI.toFile());
        pb.environment().put("POLYRAG_TEST_CHROMIUM", CHROMIUM.toString());
        pb.environment().putAll(env);
        pb.redirectError(ProcessBuilder.Redirect.INHERIT);
        Process p = pb.start();
        String out = new String(p.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
        assertThat(p.waitFor(300, TimeUnit.SECONDS)).as("the browser test finished").isTrue();
        String last = out.strip().lines().reduce((a, b) -> b).orElse("{}");
        JsonNode r = Json.MAPPER.readTree(last);
        assertThat(r.path("problems").toString()).as(out).isEqualTo("[]");
        assertThat(p.exitValue()).as(out).isZero();
        return r;
    }

    /** Node, playwright-core and Chromium, and a build with the UI: skips saying which is missing (fails in CI). */
    private static void require() {
        TestServices.require(!TestServices.runs("node", "--version") ? "node is not installed"
                : !Files.isDirectory(UI.resolve("node_modules/playwright-core")) ? "ui/node_modules has no "
                        + "playwright-core: build with npm on the PATH (ui/build.sh runs npm ci)"
                : !Files.isExecutable(CHROMIUM) ? CHROMIUM + " is missing: apt-get install chromium (.ci/run does)"
                : !WebUi.present() ? "this build has no web UI: build with npm on the PATH" : null);
    }
}
