package io.polyrag.source.web;

import static org.assertj.core.api.Assertions.assertThat;

import java.net.URI;
import org.junit.jupiter.api.Test;

/** What lies under a crawl's path prefix, and which redirects lead to a sign-in page. */
class CrawlPathsTest {
    @Test
    void a_prefix_holds_its_own_segment_only_and_no_escaped_dot_segments() {
        assertThat(Fetch.under("/handbook/a", "/handbook")).isTrue();
        assertThat(Fetch.under("/handbook", "/handbook")).isTrue();
        assertThat(Fetch.under("/handbook-2019/b", "/handbook")).as("another folder sharing its name's start")
                .isFalse();
        assertThat(Fetch.under("/handbooks.zip", "/handbook")).isFalse();
        assertThat(Fetch.under("/docs/a.html", "/docs/")).isTrue();
        assertThat(Fetch.under("/anything", "/")).isTrue();
        assertThat(Fetch.under("/docs/%2e%2e/private/x", "/docs/")).as("an escaped dot segment").isFalse();
        assertThat(Fetch.under("/docs/%2E%2E", "/docs/")).isFalse();
    }

    @Test
    void a_start_url_naming_the_schemes_own_port_is_saved_without_it() {
        // ":443" kept, every absolute link and sitemap entry (written without it) was judged off-site, dropped.
        URI start = Fetch.withoutDefaultPort(Fetch.url("https://Docs.Example.com:443/guide/?a=1"));
        assertThat(start).hasToString("https://docs.example.com/guide/?a=1");
        assertThat(Fetch.sameSite(Fetch.url("https://docs.example.com/guide/x"), start)).isTrue();
        assertThat(Fetch.withoutDefaultPort(Fetch.url("http://docs.example.com:80/"))).hasToString(
                "http://docs.example.com/");
        assertThat(Fetch.withoutDefaultPort(Fetch.url("https://docs.example.com:8443/"))).hasToString(
                "https://docs.example.com:8443/");
        assertThat(Fetch.withoutDefaultPort(Fetch.url("http://[::1]:80/x"))).hasToString("http://[::1]/x");
        // Any other URL keeps what it was written with: a source saved with the port keeps its pages' addresses.
        assertThat(Fetch.url("https://docs.example.com:443/a")).hasToString("https://docs.example.com:443/a");
    }

    @Test
    void a_redirect_naming_where_to_return_is_a_sign_in_page() {
        assertThat(Fetch.signIn(URI.create("https://x.test/login?next=/docs/"))).isTrue();
        assertThat(Fetch.signIn(URI.create("https://x.test/sso?a=1&returnTo=%2Fdocs"))).isTrue();
        assertThat(Fetch.signIn(URI.create("https://x.test/auth?redirect_uri=x"))).isTrue();
        assertThat(Fetch.signIn(URI.create("https://x.test/docs/index.html"))).isFalse();
        assertThat(Fetch.signIn(URI.create("https://x.test/docs/?page=2"))).isFalse();
    }
    /** An escaped slash does not take a path out of its prefix (a server decodes it, then resolves the dots). */
    @org.junit.jupiter.api.Test
    void an_escaped_slash_does_not_leave_the_prefix() {
        org.assertj.core.api.Assertions.assertThat(Fetch.under("/docs/..%2Fadmin/x", "/docs/")).isFalse();
        org.assertj.core.api.Assertions.assertThat(Fetch.under("/docs/..%5cadmin/x", "/docs/")).isFalse();
        org.assertj.core.api.Assertions.assertThat(Fetch.under("/docs/a%2Fb", "/docs/")).isTrue();
    }
}
