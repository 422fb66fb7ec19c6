package io.polyrag.source.web;

import static org.assertj.core.api.Assertions.assertThat;

import java.net.URI;
import org.junit.jupiter.api.Test;

/** What lies under a crawl's path prefix, and which redirects lead to a sign-in page. */
class CrawlPathsTest {
    @Test
    void a_prefix_holds_its_own_segment_only_and_no_escaped_dot_segments() {
        assertThat(Crawl.under("/handbook/a", "/handbook")).isTrue();
        assertThat(Crawl.under("/handbook", "/handbook")).isTrue();
        assertThat(Crawl.under("/handbook-2019/b", "/handbook")).as("another folder sharing its name's start")
                .isFalse();
        assertThat(Crawl.under("/handbooks.zip", "/handbook")).isFalse();
        assertThat(Crawl.under("/docs/a.html", "/docs/")).isTrue();
        assertThat(Crawl.under("/anything", "/")).isTrue();
        assertThat(Crawl.under("/docs/%2e%2e/private/x", "/docs/")).as("an escaped dot segment").isFalse();
        assertThat(Crawl.under("/docs/%2E%2E", "/docs/")).isFalse();
    }

    @Test
    void a_redirect_naming_where_to_return_is_a_sign_in_page() {
        assertThat(Crawl.signIn(URI.create("https://x.test/login?next=/docs/"))).isTrue();
        assertThat(Crawl.signIn(URI.create("https://x.test/sso?a=1&returnTo=%2Fdocs"))).isTrue();
        assertThat(Crawl.signIn(URI.create("https://x.test/auth?redirect_uri=x"))).isTrue();
        assertThat(Crawl.signIn(URI.create("https://x.test/docs/index.html"))).isFalse();
        assertThat(Crawl.signIn(URI.create("https://x.test/docs/?page=2"))).isFalse();
    }
    /** An escaped slash does not take a path out of its prefix (a server decodes it, then resolves the dots). */
    @org.junit.jupiter.api.Test
    void an_escaped_slash_does_not_leave_the_prefix() {
        org.assertj.core.api.Assertions.assertThat(Crawl.under("/docs/..%2Fadmin/x", "/docs/")).isFalse();
        org.assertj.core.api.Assertions.assertThat(Crawl.under("/docs/..%5cadmin/x", "/docs/")).isFalse();
        org.assertj.core.api.Assertions.assertThat(Crawl.under("/docs/a%2Fb", "/docs/")).isTrue();
    }
}
