package io.polyrag.source.web;

import static org.assertj.core.api.Assertions.assertThat;

import com.code_intelligence.jazzer.junit.FuzzTest;
import java.net.URI;
import java.nio.charset.StandardCharsets;

/**
 * What a web source reads from sites it does not control, under Jazzer: robots.txt, sitemaps and the links of a page
 * resolved against it. None may throw, hang or run away: a site's bytes can only narrow or widen the crawl within its
 * limits. Regression inputs in {@code SyncParsersFuzzTestInputs/}; {@code bench/fuzz} fuzzes each for minutes.
 */
class SyncParsersFuzzTest {
    private static final URI[] PROBES = {URI.create("https://example.org/"), URI.create("https://example.org/a/b?c=d"),
        URI.create("https://example.org/%E2%82%AC/x.html"), URI.create("https://example.org/private/$"),
        URI.create("https://example.org/" + "a".repeat(300) + "?q=" + "a".repeat(300))};

    @FuzzTest(maxDuration = "5m")
    void robots(byte[] input) {
        Robots robots = Robots.parse(new String(input, StandardCharsets.UTF_8), "polyrag");
        for (URI u : PROBES) {
            robots.allowed(u);
        }
        assertThat(robots.crawlDelay()).isNotNull();
        assertThat(robots.crawlDelay().isNegative()).isFalse();
    }

    @FuzzTest(maxDuration = "5m")
    void sitemap(byte[] input) {
        Sitemap map = Sitemap.parse(input);
        assertThat(map.urls()).doesNotContainNull();
        assertThat(map.sitemaps()).doesNotContainNull();
    }

    /** {@code base URL\nhref}: the resolved link is null or an absolute http(s) URL without a fragment. */
    @FuzzTest(maxDuration = "5m")
    void link(byte[] input) {
        String text = new String(input, StandardCharsets.UTF_8);
        int nl = text.indexOf('\n');
        URI page = URI.create("https://example.org/docs/page.html");
        if (nl > 0) {
            URI given = Fetch.resolve(page, text.substring(0, nl));
            page = given == null ? page : given;
        }
        URI u = Fetch.resolve(page, nl < 0 ? text : text.substring(nl + 1));
        if (u != null) {
            assertThat(u.getScheme()).isIn("http", "https");
            assertThat(u.getHost()).isNotBlank();
            assertThat(u.getFragment()).isNull();
        }
    }
}
