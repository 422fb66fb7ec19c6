package io.polyrag.source.web;

import static org.assertj.core.api.Assertions.assertThat;
import static org.junit.jupiter.api.Assertions.assertTimeoutPreemptively;

import java.time.Duration;
import org.junit.jupiter.api.Test;

/** robots.txt as RFC 9309 reads it, for the agent polyrag. */
class RobotsTest {
    @Test
    void robots_rules_follow_rfc_9309() {
        var r = Robots.parse("""
                User-agent: *
                Disallow: /private/
                Allow: /private/open$
                Disallow: /*.pdf$
                Crawl-delay: 0.5

                User-agent: polyrag
                User-agent: somebot
                Disallow: /tmp/
                Allow: /tmp/keep
                """, "polyrag");
        assertThat(r.allowed(java.net.URI.create("http://h/tmp/x"))).isFalse();
        assertThat(r.allowed(java.net.URI.create("http://h/tmp/keep/a"))).as("the longer allow wins").isTrue();
        assertThat(r.allowed(java.net.URI.create("http://h/private/x"))).as("its own group, not *'s").isTrue();
        var star = Robots.parse("User-agent: *\nDisallow: /private/\nAllow: /private/open$\n"
                + "Disallow: /*.pdf$\nCrawl-delay: 0.5\n", "polyrag");
        assertThat(star.allowed(java.net.URI.create("http://h/private/x"))).isFalse();
        assertThat(star.allowed(java.net.URI.create("http://h/private/open"))).isTrue();
        assertThat(star.allowed(java.net.URI.create("http://h/private/open/more"))).isFalse();
        assertThat(star.allowed(java.net.URI.create("http://h/a/b.pdf"))).isFalse();
        assertThat(star.allowed(java.net.URI.create("http://h/a/b.pdf.html"))).isTrue();
        assertThat(star.crawlDelay()).isEqualTo(Duration.ofMillis(500));
        assertThat(Robots.parse("", "polyrag").allowed(java.net.URI.create("http://h/x"))).isTrue();
    }

    /** Rules and URLs are compared as RFC 9309 says: non-ASCII percent-encoded, encoded unreserved characters decoded. */
    @Test
    void paths_are_compared_percent_encoded_as_the_rfc_says() {
        var r = Robots.parse("User-agent: *\nDisallow: /caf\u00e9/\nDisallow: /%62az\nDisallow: /a%2fb\n", "polyrag");
        assertThat(r.allowed(java.net.URI.create("http://h/caf%C3%A9/x"))).isFalse();
        assertThat(r.allowed(java.net.URI.create("http://h/caf%c3%a9/x"))).as("hex in either case").isFalse();
        assertThat(r.allowed(java.net.URI.create("http://h/baz"))).isFalse();
        assertThat(r.allowed(java.net.URI.create("http://h/a%2Fb"))).as("an encoded slash stays one").isFalse();
        assertThat(r.allowed(java.net.URI.create("http://h/a/b"))).isTrue();
        assertThat(r.allowed(java.net.URI.create("http://h/cafe/x"))).isTrue();
    }

    @Test
    void robots_wildcards_match_in_linear_time_and_as_the_rfc_says() {
        assertThat(Robots.matches("/a*b", "/axxb/c")).isTrue();
        assertThat(Robots.matches("/a*b$", "/axxb/c")).isFalse();
        assertThat(Robots.matches("/a*b$", "/axxbxb")).isTrue();
        assertThat(Robots.matches("*", "/")).isTrue();
        assertThat(Robots.matches("/$", "/")).isTrue();
        assertThat(Robots.matches("/$", "/x")).isFalse();
        assertThat(Robots.matches("/x$y", "/x$yz")).as("a $ inside is literal").isTrue();
        assertThat(Robots.matches("/fish", "/Fish")).as("case-sensitive").isFalse();
        // Thirty stars against a long path that never matches: a regular expression backtracked for hours.
        String hostile = "/" + "*a".repeat(30) + "b$";
        String path = "/" + "a".repeat(5_000);
        assertTimeoutPreemptively(Duration.ofSeconds(2), () -> assertThat(Robots.matches(hostile, path))
                .isFalse());
        assertThat(Robots.parse("User-agent: *\nCrawl-delay: -5\n", "polyrag").crawlDelay())
                .isEqualTo(Duration.ZERO);
    }
    /** A robots.txt beginning with a byte-order mark keeps its rules (they were all dropped). */
    @org.junit.jupiter.api.Test
    void a_byte_order_mark_leaves_the_rules_as_written() {
        Robots r = Robots.parse("\uFEFFUser-agent: *\nDisallow: /private/\n", "polyrag");
        org.assertj.core.api.Assertions.assertThat(r.allowed(java.net.URI.create("https://x.example/private/a")))
                .isFalse();
        org.assertj.core.api.Assertions.assertThat(r.allowed(java.net.URI.create("https://x.example/public/a")))
                .isTrue();
        org.assertj.core.api.Assertions.assertThat(r.allowed(java.net.URI.create("https://x.example/private%2Fa")))
                .as("an escaped slash is the slash a server reads").isFalse();
    }
}
