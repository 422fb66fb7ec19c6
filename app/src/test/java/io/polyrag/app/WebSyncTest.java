package io.polyrag.app;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.awaitility.Awaitility.await;

import com.sun.net.httpserver.HttpExchange;
import com.sun.net.httpserver.HttpServer;
import io.polyrag.app.api.SourceRegistration;
import io.polyrag.core.InvalidInputException;
import io.polyrag.core.http.PublicOnlyResolver;
import io.polyrag.core.model.DocumentInfo;
import io.polyrag.core.model.JobInfo;
import io.polyrag.core.model.JobStatus;
import io.polyrag.core.model.SearchHit;
import io.polyrag.core.model.SearchRequest;
import java.io.IOException;
import java.net.InetSocketAddress;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.CopyOnWriteArrayList;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * A web site kept in step with the index, against a real HTTP server on loopback: the crawl follows links within
 * the site and the path prefix to its depth and page limits, honours robots.txt and nofollow, uses the sitemap for
 * pages nothing links to; a second sync sends conditional requests and re-reads nothing unchanged (304s); a changed
 * page is re-indexed, a page that answers 404 is removed from every store; non-public addresses are refused unless
 * the operator allows them; bad settings name the field.
 */
class WebSyncTest {
    @TempDir
    Path tmp;

    private HttpServer server;
    private String base;
    private final Map<String, String> pages = new ConcurrentHashMap<>();
    private final List<String> requests = new CopyOnWriteArrayList<>();
    private final Map<String, String> redirects = new ConcurrentHashMap<>();
    private final Map<String, Integer> failing = new ConcurrentHashMap<>();
    /** Pages served in another charset than UTF-8, named by their Content-Type. */
    private final Map<String, String> charsets = new ConcurrentHashMap<>();
    /** Pages served as another type than their extension says. */
    private final Map<String, String> types = new ConcurrentHashMap<>();
    /** Serve pages gzipped whatever the request asks (as S3 and CDNs serve pre-compressed objects). */
    private volatile boolean gzipped;

    @BeforeEach
    void start() throws IOException {
        server = HttpServer.create(new InetSocketAddress("127.0.0.1", 0), 0);
        server.createContext("/", this::serve);
        server.start();
        base = "http://127.0.0.1:" + server.getAddress().getPort();
        pages.put("/robots.txt", "User-agent: *\nDisallow: /docs/private/\n\nUser-agent: otherbot\nDisallow: /\n\n"
                + "Sitemap: " + base + "/sitemap.xml\n");
        pages.put("/sitemap.xml", "<?xml version=\"1.0\"?><urlset xmlns=\"http://www.sitemaps.org/schemas/sitemap/0.9\">"
                + "<url><loc>" + base + "/docs/orphan.html</loc></url></urlset>");
        pages.put("/docs/", page("Lighthouse handbook", "The handbook of the Quillon light.",
                "<a href=\"lamp.html\">lamp</a> <a href=\"/docs/keepers.html#top\">keepers</a>"
                        + " <a href=\"private/salaries.html\">salaries</a> <a href=\"/shop/\">shop</a>"
                        + " <a href=\"https://elsewhere.example/\">elsewhere</a> <a href=\"mailto:x@y.z\">mail</a>"));
        pages.put("/docs/lamp.html", page("The lamp", "The Quillon lamp burns colza oil in a Fresnel lens.",
                "<a href=\"deep/one.html\">deeper</a>"));
        pages.put("/docs/keepers.html", page("Keepers", "Ada Ferrow kept the Quillon light for forty years.",
                "<a href=\"lamp.html\">lamp</a>"));
        pages.put("/docs/deep/one.html", page("One", "Depth one of the lamp pages.",
                "<a href=\"two.html\">two</a>"));
        pages.put("/docs/deep/two.html", page("Two", "Depth three: beyond the limit.", ""));
        pages.put("/docs/private/salaries.html", page("Salaries", "Robots keep this out.", ""));
        pages.put("/docs/orphan.html", page("Orphan", "Only the sitemap knows the foghorn schedule.", ""));
        pages.put("/shop/", page("Shop", "Outside the path prefix.", ""));
    }

    @AfterEach
    void stop() {
        server.stop(0);
    }

    private static String page(String title, String text, String links) {
        return "<!doctype html><html><head><title>" + title + "</title></head><body><nav>" + links + "</nav><p>"
                + text + "</p></body></html>";
    }

    /** Serves the pages with an ETag (their hash) and honours If-None-Match. */
    private void serve(HttpExchange x) throws IOException {
        String path = x.getRequestURI().getPath();
        requests.add(x.getRequestMethod() + " " + path + (x.getRequestHeaders().containsKey("If-None-Match")
                ? " conditional" : ""));
        Integer status = failing.get(path);
        if (status != null) {
            if (status == 503) {
                x.getResponseHeaders().add("Retry-After", "0");   // retried at once: the test waits for no backoff
            }
            x.sendResponseHeaders(status, -1);
            x.close();
            return;
        }
        String to = redirects.get(path);
        if (to != null) {
            x.getResponseHeaders().add("Location", to);
            x.sendResponseHeaders(301, -1);
            x.close();
            return;
        }
        String body = pages.get(path);
        if (body == null) {
            x.sendResponseHeaders(404, -1);
            x.close();
            return;
        }
        String etag = "\"" + Integer.toHexString(body.hashCode()) + "\"";
        x.getResponseHeaders().add("ETag", etag);
        if (etag.equals(x.getRequestHeaders().getFirst("If-None-Match"))) {
            x.sendResponseHeaders(304, -1);
            x.close();
            return;
        }
        String charset = charsets.getOrDefault(path, "utf-8");
        byte[] bytes = body.getBytes(java.nio.charset.Charset.forName(charset));
        if (gzipped && !path.endsWith(".txt") && !path.endsWith(".xml")) {
            java.io.ByteArrayOutputStream zipped = new java.io.ByteArrayOutputStream();
            try (var gz = new java.util.zip.GZIPOutputStream(zipped)) {
                gz.write(bytes);
            }
            bytes = zipped.toByteArray();
            x.getResponseHeaders().add("Content-Encoding", "gzip");
        }
        x.getResponseHeaders().add("Content-Type", types.getOrDefault(path, path.endsWith(".txt") ? "text/plain"
                : path.endsWith(".xml") ? "application/xml" : "text/html; charset=" + charset));
        x.sendResponseHeaders(200, bytes.length);
        x.getResponseBody().write(bytes);
        x.close();
    }

    private Polyrag open(boolean allowPrivate) {
        return open(allowPrivate, Map.of());
    }

    private Polyrag open(boolean allowPrivate, Map<String, String> backends) {
        Map<String, String> settings = new java.util.HashMap<>(backends);
        settings.put("vector.enabled", "false");
        settings.put("sync.web.allow.private", Boolean.toString(allowPrivate));
        return Polyrag.open(PolyragTest.config(tmp.resolve("data"), settings));
    }

    @Test
    void a_web_site_stays_in_step_with_the_index() {
        webSite(Map.of());
    }

    @Test
    void a_web_site_stays_in_step_with_the_index_on_postgresql() {
        webSite(Map.of("catalog.backend", "postgres", "fulltext.backend", "postgres", "postgres.url",
                io.polyrag.testing.TestPostgres.freshSchema("websync")));
    }

    private void webSite(Map<String, String> backends) {
        try (Polyrag p = open(true, backends)) {
            var registered = p.sources().register(new SourceRegistration("handbook", "web", Map.of("start_urls",
                    List.of(base + "/docs/"), "path_prefix", "/docs/", "max_depth", 2), "coast", 3600, true));
            JobInfo first = awaitJob(p, registered.jobId());
            assertThat(paths(p)).containsExactlyInAnyOrder("/docs/", "/docs/lamp.html", "/docs/keepers.html",
                    "/docs/deep/one.html", "/docs/orphan.html");
            assertThat(requests).as("robots.txt disallows it").noneMatch(r -> r.contains("/private/"))
                    .as("outside the prefix").noneMatch(r -> r.contains("/shop/"))
                    .as("beyond max_depth").noneMatch(r -> r.contains("two.html"))
                    .as("each page fetched once").filteredOn(r -> r.startsWith("GET /docs/lamp.html")).hasSize(1);
            assertThat(first.progress().added()).isEqualTo(5);
            assertThat(texts(p, "foghorn schedule")).anyMatch(t -> t.contains("foghorn"));
            assertThat(p.documents().content(docId(p, "/docs/lamp.html")).mediaType()).isEqualTo("text/html");

            // Nothing changed: every page is asked conditionally and answers 304; nothing is re-indexed.
            requests.clear();
            JobInfo second = awaitJob(p, p.sources().sync("handbook"));
            assertThat(requests).filteredOn(r -> r.startsWith("GET /docs/")).allMatch(r -> r.endsWith("conditional"))
                    .hasSize(5);
            assertThat(second.progress().unchanged()).isEqualTo(5);
            assertThat(second.progress().added() + second.progress().updated()).isZero();

            // A page changes, another is removed (404): re-indexed, and gone from every store.
            long lampVersion = version(p, "/docs/lamp.html");
            pages.put("/docs/lamp.html", page("The lamp", "The Quillon lamp now burns paraffin.",
                    "<a href=\"deep/one.html\">deeper</a>"));
            pages.remove("/docs/keepers.html");
            JobInfo third = awaitJob(p, p.sources().sync("handbook"));
            assertThat(version(p, "/docs/lamp.html")).isGreaterThan(lampVersion);
            assertThat(texts(p, "paraffin")).anyMatch(t -> t.contains("paraffin"));
            assertThat(texts(p, "colza oil")).noneMatch(t -> t.contains("colza"));
            assertThat(paths(p)).doesNotContain("/docs/keepers.html");
            assertThat(texts(p, "Ada Ferrow kept")).noneMatch(t -> t.contains("Ferrow"));
            assertThat(third.progress().deleted()).isEqualTo(1);
            assertThat(third.progress().updated()).isEqualTo(1);
            assertThat(p.sources().get("handbook").items()).isEqualTo(4);

            // A new page, and a page renamed (the old address now redirects, then stops answering).
            pages.put("/docs/tides.html", page("Tides", "Spring tides at Quillon Point rise four metres.", ""));
            pages.put("/docs/lantern.html", pages.remove("/docs/lamp.html").replace("<title>The lamp</title>",
                    "<title>The lantern</title>"));
            pages.put("/docs/", pages.get("/docs/").replace("lamp.html", "lantern.html")
                    .replace("<a href=\"/shop/\">", "<a href=\"tides.html\">tides</a> <a href=\"/shop/\">"));
            JobInfo fourth = awaitJob(p, p.sources().sync("handbook"));
            assertThat(paths(p)).containsExactlyInAnyOrder("/docs/", "/docs/lantern.html", "/docs/tides.html",
                    "/docs/deep/one.html", "/docs/orphan.html");
            assertThat(texts(p, "spring tides four metres")).anyMatch(t -> t.contains("Spring tides"));
            assertThat(texts(p, "lamp paraffin")).filteredOn(t -> t.contains("paraffin")).hasSize(1);
            assertThat(fourth.progress().added()).isEqualTo(2);
            assertThat(fourth.progress().deleted()).as("lamp.html, no longer reached by a complete crawl").isEqualTo(1);
            assertThat(p.admin().check(false).stores()).allSatisfy(s -> assertThat(s.orphanVersions()).isZero());
        }
    }

    /**
     * A site answering 404 for nearly every page while its start page answers (a broken deploy, a firewall refusing
     * bots) deletes nothing and says why: every page's document went in one sync, indexed again at the next.
     */
    @Test
    void a_site_answering_404_for_most_pages_at_once_deletes_nothing() {
        StringBuilder links = new StringBuilder();
        for (int i = 0; i < 12; i++) {
            pages.put("/docs/p" + i + ".html", page("Page " + i, "Tide note " + i + " of the Quillon light.", ""));
            links.append("<a href=\"p").append(i).append(".html\">p").append(i).append("</a> ");
        }
        pages.put("/docs/", page("Lighthouse handbook", "The handbook of the Quillon light.", links.toString()));
        try (Polyrag p = open(true)) {
            var registered = p.sources().register(new SourceRegistration("notes", "web", Map.of("start_urls",
                    List.of(base + "/docs/"), "path_prefix", "/docs/", "max_depth", 1), "coast", 3600, true));
            int indexed = awaitJob(p, registered.jobId()).progress().added();
            assertThat(indexed).as("the start page, its twelve pages (and the sitemap's)").isGreaterThanOrEqualTo(13);
            for (int i = 0; i < 12; i++) {
                failing.put("/docs/p" + i + ".html", 404);
            }
            JobInfo broken = awaitJob(p, p.sources().sync("notes"), JobStatus.PARTIAL);
            assertThat(paths(p)).as(broken.toString()).hasSize(indexed);
            assertThat(broken.progress().deleted()).isZero();
            assertThat(broken.progress().errors()).anySatisfy(e -> assertThat(e.reason())
                    .contains("answered that they are gone").contains("nothing was deleted"));
        }
    }

    /**
     * The blob store refusing the originals (a policy change, a store refusing the upload's form) loses only them:
     * the sync failed before recording anything, at every sync, and nothing removed from the site was deleted.
     */
    @Test
    void originals_the_blob_store_refuses_lose_only_themselves() {
        FlakyBlobs.failPut = k -> true;
        try (Polyrag p = open(true, Map.of("blob.backend", "flaky"))) {
            var registered = p.sources().register(new SourceRegistration("handbook", "web", Map.of("start_urls",
                    List.of(base + "/docs/"), "path_prefix", "/docs/", "max_depth", 2), "coast", 3600, true));
            JobInfo first = awaitJob(p, registered.jobId());
            assertThat(first.progress().added()).isEqualTo(5);
            assertThat(p.sources().get("handbook").items()).isEqualTo(5);
            pages.remove("/docs/keepers.html");
            JobInfo second = awaitJob(p, p.sources().sync("handbook"));
            assertThat(second.progress().deleted()).isEqualTo(1);
            assertThat(paths(p)).doesNotContain("/docs/keepers.html");
        } finally {
            FlakyBlobs.reset();
        }
    }

    /** Pages served gzipped though no coding was asked for are inflated: they were refused as archives, links lost. */
    @Test
    void pages_served_gzipped_are_read_and_their_links_followed() {
        gzipped = true;
        try (Polyrag p = open(true)) {
            awaitJob(p, p.sources().register(new SourceRegistration("handbook", "web", Map.of("start_urls",
                    List.of(base + "/docs/"), "path_prefix", "/docs/"), null, 3600, true)).jobId());
            assertThat(paths(p)).contains("/docs/", "/docs/lamp.html", "/docs/keepers.html");
            assertThat(p.search().run(io.polyrag.core.model.SearchRequest.of("colza oil Fresnel", 3)).hits())
                    .isNotEmpty();
        }
    }

    /**
     * The charset the Content-Type names is how a page's bytes are read, before one the page declares inside (as
     * browsers read it): a server set to windows-1251 for old pages whose heads say windows-1252.
     */
    @Test
    void a_page_is_read_in_the_charset_its_content_type_names() {
        pages.put("/docs/", page("Start", "Start page.", "<a href=\"mayak.html\">mayak</a> <a href=\"phare.html\">"
                + "phare</a>"));
        pages.put("/docs/mayak.html", "<html><head><meta charset=\"windows-1252\"><title>Маяк</title></head><body>"
                + "<p>Смотритель маяка зажигает фонарь каждый вечер.</p></body></html>");
        charsets.put("/docs/mayak.html", "windows-1251");
        pages.put("/docs/phare.html", page("Phare", "Le gardien allume la lanterne du phare à l'aube.", ""));
        charsets.put("/docs/phare.html", "iso-8859-1");
        gzipped = true;
        try (Polyrag p = open(true)) {
            awaitJob(p, p.sources().register(new SourceRegistration("handbook", "web", Map.of("start_urls",
                    List.of(base + "/docs/"), "path_prefix", "/docs/"), null, 3600, true)).jobId());
            assertThat(texts(p, "Смотритель маяка")).anyMatch(t -> t.contains("Смотритель маяка зажигает фонарь"));
            assertThat(texts(p, "gardien lanterne")).anyMatch(t -> t.contains("phare à l'aube"));
            assertThat(p.documents().get(docId(p, "/docs/mayak.html")).title()).isEqualTo("Маяк");
        }
    }

    /**
     * A large zip linked from the site, or a robots.txt naming six sitemaps, marked every crawl incomplete: a page
     * removed from the site was never deleted. Now the zip is said once and skipped, and all six are read.
     */
    @Test
    void a_large_file_of_another_type_or_six_sitemaps_do_not_keep_removed_pages() {
        pages.put("/docs/sdk.zip", "PK".repeat(1_100_000));
        types.put("/docs/sdk.zip", "application/zip");
        pages.put("/docs/", page("Start", "Start page.", "<a href=\"sdk.zip\">sdk</a> <a href=\"keepers.html\">k</a>"));
        StringBuilder robots = new StringBuilder("User-agent: *\nAllow: /\n");
        for (int i = 1; i <= 6; i++) {
            robots.append("Sitemap: ").append(base).append("/map-").append(i).append(".xml\n");
            pages.put("/map-" + i + ".xml", "<?xml version=\"1.0\"?><urlset xmlns=\"http://www.sitemaps.org/"
                    + "schemas/sitemap/0.9\"></urlset>");
        }
        pages.put("/robots.txt", robots.toString());
        try (Polyrag p = open(true, Map.of("sync.web.max.page.mb", "1"))) {
            awaitJob(p, p.sources().register(new SourceRegistration("handbook", "web", Map.of("start_urls",
                    List.of(base + "/docs/"), "path_prefix", "/docs/"), null, 3600, true)).jobId());
            assertThat(paths(p)).contains("/docs/keepers.html").doesNotContain("/docs/sdk.zip");
            pages.put("/docs/", page("Start", "Start page.", "<a href=\"sdk.zip\">sdk</a>"));
            pages.remove("/docs/keepers.html");
            JobInfo again = awaitJob(p, p.sources().sync("handbook"));
            assertThat(again.progress().deleted()).as(String.valueOf(again)).isPositive();
            assertThat(paths(p)).doesNotContain("/docs/keepers.html");
            assertThat(again.progress().warnings()).anySatisfy(w -> assertThat(w).contains("sdk.zip is application/zip"));
            assertThat(requests).filteredOn(r -> r.contains("/map-")).hasSizeGreaterThanOrEqualTo(12);
        }
    }

    /** A start URL that redirects to itself (a consent check without cookies) was dropped, the crawl complete. */
    @Test
    void a_start_page_redirecting_to_itself_gets_nothing_deleted() {
        try (Polyrag p = open(true)) {
            awaitJob(p, p.sources().register(new SourceRegistration("handbook", "web", Map.of("start_urls",
                    List.of(base + "/docs/"), "path_prefix", "/docs/"), null, 3600, true)).jobId());
            List<String> before = paths(p);
            redirects.put("/docs/", "/docs/");
            JobInfo loop = unreached(p, p.sources().sync("handbook"));
            assertThat(loop.progress().deleted()).as(loop.toString()).isZero();
            assertThat(loop.progress().errors()).anySatisfy(e -> assertThat(e.reason()).contains("redirects in a loop"));
            assertThat(paths(p)).containsExactlyInAnyOrderElementsOf(before);
        }
    }

    /** Two start URLs whose redirects meet on the way to a page reached: no loop (every sync failed, deleting nothing). */
    @Test
    void start_pages_whose_redirects_meet_on_the_way_to_a_page_are_reached() {
        pages.put("/docs/en/", page("English", "The English handbook.", "<a href=\"/docs/keepers.html\">k</a>"));
        redirects.put("/docs", "/docs/");
        redirects.put("/docs/", "/docs/en/");
        redirects.put("/docs/index.html", "/docs/");
        try (Polyrag p = open(true)) {
            JobInfo job = awaitJob(p, p.sources().register(new SourceRegistration("handbook", "web", Map.of(
                    "start_urls", List.of(base + "/docs", base + "/docs/index.html"), "path_prefix", "/docs"), null,
                    3600, true)).jobId());
            assertThat(job.progress().errors()).as(job.toString()).isEmpty();
            assertThat(paths(p)).contains("/docs/en/", "/docs/keepers.html");
        }
    }

    @Test
    void redirects_are_followed_on_the_site_and_a_loop_ends() {
        pages.put("/docs/", page("Start", "Start page.", "<a href=\"moved.html\">moved</a> <a href=\"loop1\">l</a>"));
        redirects.put("/docs/moved.html", "/docs/keepers.html");
        redirects.put("/docs/loop1", "/docs/loop2");
        redirects.put("/docs/loop2", "/docs/loop1");
        try (Polyrag p = open(true)) {
            awaitJob(p, p.sources().register(new SourceRegistration("handbook", "web", Map.of("start_urls",
                    List.of(base + "/docs/"), "path_prefix", "/docs/", "max_depth", 1), null, 3600, true)).jobId());
            assertThat(paths(p)).containsExactlyInAnyOrder("/docs/", "/docs/keepers.html", "/docs/orphan.html");
            assertThat(requests).filteredOn(r -> r.contains("loop")).hasSize(2);
        }
    }

    /**
     * A start page not reached — it answers 404, it sends the crawler to a sign-in page outside the path prefix,
     * robots.txt now disallows it — finds nothing below it: the crawl is incomplete and deletes nothing (it deleted
     * every page the start page led to), and the job says why.
     */
    @Test
    void a_start_page_not_reached_gets_nothing_deleted() {
        try (Polyrag p = open(true)) {
            awaitJob(p, p.sources().register(new SourceRegistration("handbook", "web", Map.of("start_urls",
                    List.of(base + "/docs/"), "path_prefix", "/docs/"), null, 3600, true)).jobId());
            assertThat(paths(p)).hasSize(6);
            redirects.put("/docs/", "/login?next=/docs/");
            JobInfo login = unreached(p, p.sources().sync("handbook"));
            assertThat(login.progress().deleted()).as(login.toString()).isZero();
            assertThat(login.progress().errors()).anySatisfy(e -> assertThat(e.reason()).contains("the start URL")
                    .contains("a sign-in page"));
            redirects.clear();
            failing.put("/docs/", 404);
            JobInfo gone = unreached(p, p.sources().sync("handbook"));
            assertThat(gone.progress().deleted()).as(gone.toString()).isLessThanOrEqualTo(1);
            assertThat(gone.progress().errors()).anySatisfy(e -> assertThat(e.reason()).contains("HTTP 404"));
            failing.clear();
            pages.put("/robots.txt", "User-agent: *\nDisallow: /docs/\n");
            JobInfo disallowed = unreached(p, p.sources().sync("handbook"));
            assertThat(disallowed.progress().deleted()).as(disallowed.toString()).isZero();
            assertThat(disallowed.progress().errors()).anySatisfy(e -> assertThat(e.reason()).contains("robots.txt"));
            assertThat(paths(p)).as("all but the start page that answered 404").hasSizeGreaterThanOrEqualTo(5);
        }
    }

    /**
     * With the prefix "/" (the UI's default) a sign-in page is inside it: a start page now sent there is not reached
     * either (the login page was indexed as the site and every page it did not link was deleted).
     */
    @Test
    void a_start_page_sent_to_a_sign_in_page_inside_the_prefix_gets_nothing_deleted() {
        try (Polyrag p = open(true)) {
            awaitJob(p, p.sources().register(new SourceRegistration("site", "web", Map.of("start_urls",
                    List.of(base + "/docs/"), "path_prefix", "/"), null, 3600, true)).jobId());
            List<String> before = paths(p);
            redirects.put("/docs/", "/login?next=/docs/");
            pages.put("/login", page("Sign in", "Sign in to read the handbook.", ""));
            JobInfo login = unreached(p, p.sources().sync("site"));
            assertThat(login.progress().deleted()).as(login.toString()).isZero();
            assertThat(login.progress().errors()).anySatisfy(e -> assertThat(e.reason()).contains("a sign-in page"));
            assertThat(paths(p)).containsExactlyInAnyOrderElementsOf(before);
        }
    }

    /**
     * Without a Sitemap line in robots.txt, a default /sitemap.xml that answers 403 or redirects means "no sitemap",
     * as a 404 does: a page no longer linked is deleted. Read as a failing sitemap, every crawl was incomplete.
     */
    @Test
    void an_undeclared_default_sitemap_refused_or_redirected_is_no_sitemap() {
        pages.put("/robots.txt", "User-agent: *\nDisallow: /docs/private/\n");
        try (Polyrag p = open(true)) {
            JobInfo refused = syncWithKeepersUnlinkedAndTheSitemapRefused(p);
            assertThat(refused.progress().warnings()).noneSatisfy(w -> assertThat(w).contains("sitemap"));
            // Nothing links keepers.html now, and no sitemap lists it: it is gone (as is the orphan only the sitemap
            // listed).
            assertThat(refused.progress().deleted()).as(refused.toString()).isEqualTo(2);
            assertThat(paths(p)).doesNotContain("/docs/keepers.html", "/docs/orphan.html");
        }
    }

    /**
     * A sitemap robots.txt names on another host is said and not read; the site's own /sitemap.xml is read instead,
     * judged as the default one: refused, it means "no sitemap", and the crawl stays complete (deletes go on).
     */
    @Test
    void a_sitemap_named_on_another_host_is_said_and_the_sites_own_refused_is_no_sitemap() {
        pages.put("/robots.txt", "User-agent: *\nDisallow: /docs/private/\n\nSitemap: https://cdn.elsewhere.example/"
                + "map.xml\n");
        try (Polyrag p = open(true)) {
            JobInfo next = syncWithKeepersUnlinkedAndTheSitemapRefused(p);
            assertThat(next.progress().warnings()).anySatisfy(w -> assertThat(w).contains("cdn.elsewhere.example")
                    .contains("not read"));
            assertThat(paths(p)).as(next.toString()).doesNotContain("/docs/keepers.html");
        }
    }

    /**
     * A site whose pages all fail (its server down behind a CDN that still answers robots.txt and the sitemap): the
     * crawl stops after twenty failed pages in a row, deleting nothing. It tried every page the sitemap listed, with
     * each one's retries, about a minute each with real timeouts.
     */
    @Test
    void a_crawl_stops_after_twenty_pages_in_a_row_fail() {
        StringBuilder map = new StringBuilder("<?xml version=\"1.0\"?><urlset xmlns=\"http://www.sitemaps.org/schemas/"
                + "sitemap/0.9\">");
        for (int i = 0; i < 40; i++) {
            map.append("<url><loc>").append(base).append("/docs/p").append(i).append(".html</loc></url>");
            failing.put("/docs/p" + i + ".html", 503);
        }
        pages.put("/sitemap.xml", map + "</urlset>");
        try (Polyrag p = open(true)) {
            String job = p.sources().register(new SourceRegistration("handbook", "web", Map.of("start_urls",
                    List.of(base + "/docs/"), "path_prefix", "/docs/"), null, 3600, true)).jobId();
            JobInfo j = unreached(p, job);
            assertThat(requests.stream().filter(r -> r.startsWith("GET /docs/p")).map(r -> r.split(" ")[1])
                    .distinct().count()).as("pages tried").isEqualTo(20);
            assertThat(j.progress().warnings()).anySatisfy(w -> assertThat(w).contains("in a row failed"));
            assertThat(j.progress().deleted()).isZero();
        }
    }

    /**
     * A page that answers 304 has its links read from its kept original; when that is gone (the blob store lost it),
     * the page is read again for them, so the crawl stays complete and a page no longer reached is deleted. Every
     * later crawl was incomplete, silently, and nothing was deleted again.
     */
    @Test
    void a_page_whose_original_is_gone_is_read_again_for_its_links() {
        try (Polyrag p = open(true)) {
            awaitJob(p, p.sources().register(new SourceRegistration("handbook", "web", Map.of("start_urls",
                    List.of(base + "/docs/"), "path_prefix", "/docs/"), null, 3600, true)).jobId());
            assertThat(paths(p)).contains("/docs/lamp.html", "/docs/orphan.html");
            assertThat(p.components().blobs.delete(docId(p, "/docs/lamp.html"))).isTrue();
            pages.put("/sitemap.xml", "<?xml version=\"1.0\"?><urlset xmlns=\"http://www.sitemaps.org/schemas/"
                    + "sitemap/0.9\"></urlset>");
            requests.clear();
            JobInfo j = awaitJob(p, p.sources().sync("handbook"));
            assertThat(requests).contains("GET /docs/lamp.html conditional", "GET /docs/lamp.html",
                    "GET /docs/deep/one.html conditional");
            assertThat(j.progress().deleted()).as(j.toString()).isEqualTo(1);
            assertThat(paths(p)).doesNotContain("/docs/orphan.html");
        }
    }

    @Test
    void the_page_limit_stops_the_crawl_without_deleting_what_it_did_not_reach() {
        try (Polyrag p = open(true)) {
            String job = p.sources().register(new SourceRegistration("handbook", "web", Map.of("start_urls",
                    List.of(base + "/docs/"), "path_prefix", "/docs/"), null, 3600, true)).jobId();
            awaitJob(p, job);
            assertThat(paths(p)).hasSize(6);
            JobInfo limited = awaitJob(p, p.sources().update(new SourceRegistration("handbook", "web", Map.of(
                    "start_urls", List.of(base + "/docs/"), "path_prefix", "/docs/", "max_pages", 2), null, 3600, true))
                    .jobId());
            assertThat(limited.progress().processed()).isEqualTo(2);
            assertThat(limited.progress().warnings()).anySatisfy(w -> assertThat(w).contains("page limit (2)"));
            assertThat(limited.progress().deleted()).isZero();
            assertThat(paths(p)).hasSize(6);
        }
    }

    @Test
    void non_public_addresses_are_refused_unless_the_operator_allows_them_and_bad_settings_name_the_field() {
        try (Polyrag p = open(false)) {
            assertThatThrownBy(() -> p.sources().register(new SourceRegistration("local", "web", Map.of("start_urls",
                    List.of(base + "/docs/")), null, null, null))).isInstanceOf(InvalidInputException.class)
                    .hasMessageContaining("not a public address, or does not resolve")
                    .hasMessageContaining("POLYRAG_SYNC_WEB_ALLOW_PRIVATE");
            // A name that resolves privately and one that does not resolve get one answer, with no address in it.
            String local = PublicOnlyResolver.refusal("localhost", false, "web sources", "X");
            assertThat(PublicOnlyResolver.refusal("no-such-host.invalid", true, "web sources", "X"))
                    .as("with private addresses allowed, nothing to keep from anyone").endsWith("does not resolve");
            assertThat(local).doesNotContain("127.0.0.1").isEqualTo(PublicOnlyResolver.refusal(
                    "no-such-host.invalid", false, "web sources", "X").replace("no-such-host.invalid", "localhost"));
            assertThatThrownBy(() -> p.sources().register(new SourceRegistration("meta", "web", Map.of("start_urls",
                    List.of("http://169.254.169.254/latest/meta-data/")), null, null, null)))
                    .hasMessageContaining("not a public address");
            assertThat(requests).isEmpty();
        }
        try (Polyrag p = open(true)) {
            for (var bad : List.<Map<String, Object>>of(Map.of(), Map.of("start_urls", List.of("ftp://x/")),
                    Map.of("start_urls", List.of("http://user:pw@" + base.substring(7) + "/")),
                    Map.of("start_urls", List.of(base + "/", "http://localhost:1/")),
                    Map.of("start_urls", List.of(base + "/"), "max_pages", 0),
                    Map.of("start_urls", List.of(base + "/"), "path_prefix", "docs"),
                    Map.of("start_urls", List.of(base + "/"), "root", "/etc"))) {
                assertThatThrownBy(() -> p.sources().register(new SourceRegistration("bad", "web", bad, null, null,
                        null))).as(bad.toString()).isInstanceOf(InvalidInputException.class)
                        .hasMessageContaining("'config.");
            }
        }
    }

    @Test
    void a_guarded_name_that_resolves_to_a_private_address_at_fetch_time_is_refused_by_the_lookup_itself()
            throws Exception {
        Process p = new ProcessBuilder(Path.of(System.getProperty("java.home"), "bin", "java").toString(), "-cp",
                System.getProperty("java.class.path"), RebindProbe.class.getName(), Integer.toString(
                        server.getAddress().getPort())).redirectErrorStream(true).start();
        String out = new String(p.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
        assertThat(p.waitFor()).as(out).isZero();
        org.junit.jupiter.api.Assumptions.assumeFalse(out.contains("skip: "), out.strip());
        assertThat(out).contains("127.0.0.1 404").containsPattern(" refused: .* resolves only to addresses that are not "
                + "public").containsPattern("refusal: the host .* is not a public address, or does not resolve");
    }

    /**
     * A WordPress-style index of a dozen sitemaps, listing pages outside the source's prefix too, is read whole: a page
     * it no longer lists is deleted (ten sitemaps in all left every such crawl incomplete, and nothing was deleted).
     */
    @Test
    void an_index_of_a_dozen_sitemaps_is_read_whole_and_a_page_no_longer_listed_is_deleted() {
        java.util.function.IntFunction<String> index = last -> {
            StringBuilder x = new StringBuilder("<?xml version=\"1.0\"?><sitemapindex xmlns=\"http://www.sitemaps.org"
                    + "/schemas/sitemap/0.9\">");
            for (int i = 1; i <= 12; i++) {
                x.append("<sitemap><loc>").append(base).append("/maps/").append(i).append(".xml</loc></sitemap>");
                pages.put("/maps/" + i + ".xml", "<?xml version=\"1.0\"?><urlset xmlns=\"http://www.sitemaps.org/"
                        + "schemas/sitemap/0.9\"><url><loc>" + base + "/blog/post-" + i + ".html</loc></url>"
                        + (i == last ? "<url><loc>" + base + "/docs/orphan.html</loc></url>" : "") + "</urlset>");
            }
            return x + "</sitemapindex>";
        };
        pages.put("/sitemap.xml", index.apply(12));
        try (Polyrag p = open(true, Map.of())) {
            awaitJob(p, p.sources().register(new SourceRegistration("handbook", "web", Map.of("start_urls",
                    List.of(base + "/docs/"), "path_prefix", "/docs/"), null, 3600, true)).jobId(), JobStatus.SUCCEEDED);
            assertThat(paths(p)).contains("/docs/orphan.html").noneMatch(path -> path.startsWith("/blog/"));
            pages.put("/sitemap.xml", index.apply(0));
            JobInfo again = awaitJob(p, p.sources().sync("handbook"), JobStatus.SUCCEEDED);
            assertThat(again.progress().warnings()).as(String.valueOf(again)).noneSatisfy(w -> assertThat(w)
                    .contains("not read"));
            assertThat(again.progress().deleted()).isEqualTo(1);
            assertThat(paths(p)).doesNotContain("/docs/orphan.html");
        }
    }

    /** A sitemap index with more children than a crawl reads: the orphans only unread ones list are not deleted. */
    @Test
    void sitemaps_left_unread_by_the_crawls_limits_keep_their_pages() {
        try (Polyrag p = open(true, Map.of())) {
            awaitJob(p, p.sources().register(new SourceRegistration("handbook", "web", Map.of("start_urls",
                    List.of(base + "/docs/"), "path_prefix", "/docs/"), null, 3600, true)).jobId(), JobStatus.SUCCEEDED);
            assertThat(paths(p)).contains("/docs/orphan.html");
            // Now the orphan is listed only by the index's 55th child, past what one crawl reads.
            StringBuilder index = new StringBuilder("<?xml version=\"1.0\"?><sitemapindex xmlns=\"http://www.sitemaps"
                    + ".org/schemas/sitemap/0.9\">");
            for (int i = 1; i <= 55; i++) {
                index.append("<sitemap><loc>").append(base).append("/maps/").append(i).append(".xml</loc></sitemap>");
                pages.put("/maps/" + i + ".xml", "<?xml version=\"1.0\"?><urlset xmlns=\"http://www.sitemaps.org/"
                        + "schemas/sitemap/0.9\">" + (i == 55 ? "<url><loc>" + base + "/docs/orphan.html</loc></url>"
                        : "") + "</urlset>");
            }
            pages.put("/sitemap.xml", index + "</sitemapindex>");
            JobInfo again = awaitJob(p, p.sources().sync("handbook"), JobStatus.SUCCEEDED);
            assertThat(again.progress().deleted()).as(String.valueOf(again)).isZero();
            assertThat(again.progress().warnings()).anySatisfy(w -> assertThat(w).contains("not read"));
            assertThat(paths(p)).contains("/docs/orphan.html");
        }
    }

    @Test
    void a_failing_sitemap_or_a_page_that_could_not_be_indexed_never_gets_pages_deleted() {
        // Links only in its navigation, which is boilerplate: no text to index.
        pages.put("/docs/hub.html", "<html><head></head><body><nav><a href=\"leaf.html\">leaf</a></nav></body></html>");
        pages.put("/docs/leaf.html", page("Leaf", "The leaf page about the fog bell.", ""));
        pages.put("/docs/", page("Start", "Start page.", "<a href=\"hub.html\">hub</a>"));
        try (Polyrag p = open(true, Map.of("sync.web.max.page.mb", "1"))) {
            JobInfo first = awaitJob(p, p.sources().register(new SourceRegistration("handbook", "web", Map.of(
                    "start_urls", List.of(base + "/docs/"), "path_prefix", "/docs/"), null, 3600, true)).jobId(),
                    JobStatus.PARTIAL);
            assertThat(first.progress().errors()).singleElement().satisfies(e -> assertThat(e.reason())
                    .contains("no text to index"));
            assertThat(paths(p)).as(String.valueOf(first)).contains("/docs/leaf.html", "/docs/orphan.html")
                    .doesNotContain("/docs/hub.html");

            // The sitemap fails: the orphan only it lists is kept. The hub (no text: not indexed) is fetched whole,
            // not conditionally, so its links are followed and the leaf is kept too.
            failing.put("/sitemap.xml", 503);
            requests.clear();
            JobInfo second = awaitJob(p, p.sources().sync("handbook"), JobStatus.SUCCEEDED);
            assertThat(second.progress().deleted()).isZero();
            assertThat(second.progress().warnings()).anySatisfy(w -> assertThat(w).contains("sitemap"));
            assertThat(paths(p)).contains("/docs/leaf.html", "/docs/orphan.html");
            assertThat(requests).contains("GET /docs/hub.html").contains("GET /docs/leaf.html conditional");

            // The sitemap is back and no longer lists the orphan: now it is gone.
            failing.clear();
            pages.put("/sitemap.xml", "<?xml version=\"1.0\"?><urlset xmlns=\"http://www.sitemaps.org/schemas/"
                    + "sitemap/0.9\"></urlset>");
            JobInfo third = awaitJob(p, p.sources().sync("handbook"), JobStatus.SUCCEEDED);
            assertThat(third.progress().deleted()).as(third.toString()).isEqualTo(1);
            assertThat(paths(p)).doesNotContain("/docs/orphan.html").contains("/docs/leaf.html");

            // The hub outgrows the page limit: skipped, so its links are not followed, and the leaf only it links
            // to is kept (before, it was deleted).
            pages.put("/docs/hub.html", pages.get("/docs/hub.html").replace("</body>", "<!-- " + "x".repeat(1_200_000)
                    + " --></body>"));
            JobInfo fourth = awaitJob(p, p.sources().sync("handbook"), JobStatus.PARTIAL);
            assertThat(fourth.progress().errors()).anySatisfy(e -> assertThat(e.reason()).contains("larger than"));
            assertThat(fourth.progress().deleted()).as(fourth.toString()).isZero();
            assertThat(paths(p)).contains("/docs/leaf.html");
        }
    }

    @Test
    void a_refused_host_is_not_guarded_so_the_servers_own_lookups_of_it_are_untouched() {
        assertThat(PublicOnlyResolver.refusal("127.0.0.1", false, "web sources", "POLYRAG_SYNC_WEB_ALLOW_PRIVATE")).contains("not a public address");
        assertThat(PublicOnlyResolver.guarded("127.0.0.1")).isFalse();
        try (Polyrag p = open(true)) {
            assertThatThrownBy(() -> p.sources().register(new SourceRegistration("x", "web", Map.of("start_urls",
                    List.of(base + "/guide"), "path_prefix", "/guide/"), null, null, null)))
                    .hasMessageContaining("outside 'config.path_prefix'");
        }
    }

    private static JobInfo awaitJob(Polyrag p, String id) {
        return awaitJob(p, id, JobStatus.SUCCEEDED);
    }

    /** A sync that found nothing of its start page: it fails (nothing was read) or is partial (a sitemap's pages). */
    private static JobInfo unreached(Polyrag p, String id) {
        await().atMost(Duration.ofSeconds(60)).until(() -> p.jobs().get(id).status().finished());
        JobInfo j = p.jobs().get(id);
        assertThat(j.status()).as(String.valueOf(j)).isIn(JobStatus.PARTIAL, JobStatus.FAILED);
        return j;
    }

    private static JobInfo awaitJob(Polyrag p, String id, JobStatus expected) {
        await().atMost(Duration.ofSeconds(60)).until(() -> p.jobs().get(id).status() != JobStatus.QUEUED
                && p.jobs().get(id).status() != JobStatus.RUNNING);
        JobInfo j = p.jobs().get(id);
        assertThat(j.status()).as(String.valueOf(j)).isEqualTo(expected);
        return j;
    }

    /** Crawls the handbook, then syncs again with keepers.html linked from nowhere and /sitemap.xml answering 403. */
    private JobInfo syncWithKeepersUnlinkedAndTheSitemapRefused(Polyrag p) {
        awaitJob(p, p.sources().register(new SourceRegistration("handbook", "web", Map.of("start_urls",
                List.of(base + "/docs/"), "path_prefix", "/docs/"), null, 3600, true)).jobId());
        assertThat(paths(p)).contains("/docs/keepers.html");
        failing.put("/sitemap.xml", 403);
        pages.put("/docs/", pages.get("/docs/").replace("<a href=\"/docs/keepers.html#top\">keepers</a>", ""));
        return awaitJob(p, p.sources().sync("handbook"));
    }

    private List<String> paths(Polyrag p) {
        return p.documents().list(null, 0, 100).stream().map(DocumentInfo::uri).map(u -> u.substring(base.length()))
                .toList();
    }

    private String docId(Polyrag p, String path) {
        return p.documents().list(null, 0, 100).stream().filter(d -> d.uri().equals(base + path)).findFirst()
                .orElseThrow().id();
    }

    private long version(Polyrag p, String path) {
        return p.documents().list(null, 0, 100).stream().filter(d -> d.uri().equals(base + path)).findFirst()
                .orElseThrow().visibleVersion();
    }

    private static List<String> texts(Polyrag p, String query) {
        return p.search().run(SearchRequest.of(query, 5)).hits().stream().map(SearchHit::text).toList();
    }
}
