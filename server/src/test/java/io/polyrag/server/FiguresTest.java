package io.polyrag.server;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import io.polyrag.app.Polyrag;
import io.polyrag.core.config.Config;
import io.polyrag.testing.DocumentFixtures;
import java.awt.image.BufferedImage;
import java.io.ByteArrayInputStream;
import java.net.URI;
import java.net.URLEncoder;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.Map;
import java.util.stream.Stream;
import javax.imageio.ImageIO;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import tools.jackson.databind.JsonNode;

/**
 * Figures end to end over HTTP: a PDF with a drawn chart and an embedded one, and a presentation with a chart picture,
 * each captioned and referred to by their prose, ingest; a query about a chart's topic returns the prose with the
 * figure attached; the image comes back from its route; figures share their document's source card in answers;
 * {@code figures=skip} takes none; a deleted document's images are gone.
 */
class FiguresTest {
    private static final String PPTX = "application/vnd.openxmlformats-officedocument.presentationml.presentation";
    private static final String DOCX = "application/vnd.openxmlformats-officedocument.wordprocessingml.document";

    @TempDir
    Path tmp;

    private final HttpClient http = HttpClient.newHttpClient();
    private RestServer server;

    @Test
    void charts_come_with_the_prose_about_them_and_their_images_are_served() throws Exception {
        try (Polyrag polyrag = Polyrag.open(Config.load(Map.of(), Map.of("data.dir", tmp.resolve("d").toString())))) {
            server = new RestServer(polyrag, "127.0.0.1", 0, 16 * 1024 * 1024);
            try {
                String pdf = upload("sales-report.pdf", "application/pdf", DocumentFixtures.figuresPdf(), Map.of());
                String pptx = upload("churn.pptx", PPTX, DocumentFixtures.figuresPptx(), Map.of());
                String skipped = upload("pump.docx", DOCX, DocumentFixtures.figuresDocx(),
                        Map.of("figures", "skip"));

                JsonNode sales = json(get("/v1/search?top_k=3&q=" + q("quarterly sales by region")));
                JsonNode hit = sales.get("hits").get(0);
                assertThat(hit.get("document_id").asString()).isEqualTo(pdf);
                assertThat(hit.get("kind").asString()).as("the prose, not the figure's own chunk").isEqualTo("prose");
                assertThat(hit.get("location").asString()).isEqualTo("page 1");
                JsonNode figure = hit.get("figures").get(0);
                assertThat(figure.get("caption").asString()).startsWith("Figure 1: Quarterly sales by region");
                assertThat(figure.get("location").asString()).isEqualTo("page 1");
                assertThat(figure.get("media_type").asString()).isEqualTo("image/png");
                assertThat(figure.get("url").asString()).isEqualTo("/v1/documents/" + pdf + "/figures/1");
                assertThat(figure.get("box").size()).as("x, y, width, height in points").isEqualTo(4);
                for (JsonNode h : sales.get("hits")) {
                    assertThat(h.get("kind").asString()).isNotEqualTo("figure");
                }
                HttpResponse<byte[]> image = bytes(figure.get("url").asString());
                assertThat(image.statusCode()).isEqualTo(200);
                assertThat(image.headers().firstValue("Content-Type").orElseThrow()).isEqualTo("image/png");
                assertThat(image.headers().firstValue("Cache-Control").orElseThrow()).as("a new version may put "
                        + "another image under the same URL").contains("no-cache").doesNotContain("max-age");
                BufferedImage png = ImageIO.read(new ByteArrayInputStream(image.body()));
                assertThat(png.getWidth()).isEqualTo(figure.get("width").asInt());
                assertThat(png.getHeight()).isEqualTo(figure.get("height").asInt());

                JsonNode turnover = json(get("/v1/search?top_k=3&q=" + q("staff turnover at the Leeds warehouse")));
                JsonNode second = turnover.get("hits").get(0);
                assertThat(second.get("location").asString()).isEqualTo("page 2");
                assertThat(second.get("figures").get(0).get("caption").asString())
                        .startsWith("Figure 2: Staff turnover at the Leeds warehouse");

                JsonNode churn = json(get("/v1/search?top_k=3&q=" + q("monthly churn rate after the loyalty programme")));
                JsonNode slide = churn.get("hits").get(0);
                assertThat(slide.get("document_id").asString()).isEqualTo(pptx);
                assertThat(slide.get("location").asString()).isEqualTo("slide 1");
                JsonNode churnFigure = slide.get("figures").get(0);
                assertThat(churnFigure.get("caption").asString())
                        .isEqualTo("Figure 1: Monthly churn rate after the loyalty programme");
                assertThat(bytes(churnFigure.get("url").asString()).statusCode()).isEqualTo(200);

                // In an answer the figure shares its document's number; no passage is a figure.
                JsonNode answer = json(post("/v1/query", "{\"query\": \"How did quarterly sales by region develop?\"}"));
                JsonNode source = answer.get("sources").get(0);
                assertThat(source.get("document_id").asString()).isEqualTo(pdf);
                assertThat(source.get("figures").findValuesAsString("caption"))
                        .anyMatch(c -> c.startsWith("Figure 1: Quarterly sales"));
                for (JsonNode s : answer.get("sources")) {
                    for (JsonNode p : s.get("passages")) {
                        assertThat(p.get("kind").asString()).isNotEqualTo("figure");
                    }
                }

                // figures=skip: the text is indexed, no figure is kept.
                assertThat(json(get("/v1/search?q=" + q("pump assembly"))).get("hits").get(0).get("document_id")
                        .asString()).isEqualTo(skipped);
                assertThat(get("/v1/documents/" + skipped + "/figures/1").statusCode()).isEqualTo(404);

                // Bad figure numbers are a clear 400; unknown ones and unknown documents a 404.
                HttpResponse<String> bad = get("/v1/documents/" + pdf + "/figures/first");
                assertThat(bad.statusCode()).isEqualTo(400);
                assertThat(bad.headers().firstValue("Content-Type").orElseThrow()).contains("problem+json");
                assertThat(bad.body()).contains("figure");
                assertThat(get("/v1/documents/" + pdf + "/figures/0").statusCode()).isEqualTo(400);
                assertThat(get("/v1/documents/" + pdf + "/figures/99").statusCode()).isEqualTo(404);
                assertThat(get("/v1/documents/nope/figures/1").statusCode()).isEqualTo(404);

                // Deleted with its document: the route and the stored images.
                assertThat(figureBlobs(pdf)).isNotEmpty();
                assertThat(send(HttpRequest.newBuilder(URI.create(base() + "/v1/documents/" + pdf)).DELETE())
                        .statusCode()).isEqualTo(204);
                assertThat(get("/v1/documents/" + pdf + "/figures/1").statusCode()).isEqualTo(404);
                assertThat(figureBlobs(pdf)).isEmpty();
                assertThat(figureBlobs(pptx)).isNotEmpty();
            } finally {
                server.close();
            }
        }
    }

    /** The blob folders holding figures of a document. */
    private java.util.List<String> figureBlobs(String documentId) throws java.io.IOException {
        try (Stream<Path> all = Files.walk(tmp)) {
            return all.map(p -> p.getFileName().toString()).filter(n -> n.startsWith("figure-" + documentId)).toList();
        }
    }

    /** Uploads a file and waits for its job to succeed; returns the document id. */
    private String upload(String name, String type, byte[] content, Map<String, String> fields) {
        TestHttp.Multipart m = TestHttp.binary("file", name, type, content, fields);
        HttpResponse<String> r = send(HttpRequest.newBuilder(URI.create(base() + "/v1/documents"))
                .header("Content-Type", m.contentType()).POST(m.publisher()));
        assertThat(r.statusCode()).as(r.body()).isEqualTo(202);
        JsonNode accepted = json(r);
        await().atMost(Duration.ofSeconds(120)).until(() -> json(get("/v1/jobs/" + accepted.get("job_id")
                .asString())).get("status").asString(), s -> s.equals("succeeded") || s.equals("failed"));
        assertThat(json(get("/v1/jobs/" + accepted.get("job_id").asString())).get("status").asString())
                .isEqualTo("succeeded");
        return accepted.get("document_id").asString();
    }

    private static String q(String s) {
        return URLEncoder.encode(s, StandardCharsets.UTF_8);
    }

    private String base() {
        return "http://127.0.0.1:" + server.port();
    }

    private HttpResponse<String> get(String path) {
        return send(HttpRequest.newBuilder(URI.create(base() + path)));
    }

    private HttpResponse<byte[]> bytes(String path) throws Exception {
        return http.send(HttpRequest.newBuilder(URI.create(base() + path)).timeout(Duration.ofSeconds(30)).build(),
                HttpResponse.BodyHandlers.ofByteArray());
    }

    private HttpResponse<String> post(String path, String json) {
        return send(HttpRequest.newBuilder(URI.create(base() + path)).header("Content-Type", "application/json")
                .POST(HttpRequest.BodyPublishers.ofString(json)));
    }

    private HttpResponse<String> send(HttpRequest.Builder b) {
        return TestHttp.send(http, b);
    }

    private static JsonNode json(HttpResponse<String> r) {
        return TestHttp.json(r);
    }

}
