package io.polyrag.source.web;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.ByteArrayOutputStream;
import java.nio.charset.StandardCharsets;
import java.util.zip.GZIPOutputStream;
import org.junit.jupiter.api.Test;

/** A sitemap served gzipped (sitemap.xml.gz) is read as the XML it holds. */
class SitemapGzipTest {
    @Test
    void a_gzipped_sitemap_is_inflated_and_a_plain_one_left_alone() throws Exception {
        String xml = "<urlset xmlns=\"http://www.sitemaps.org/schemas/sitemap/0.9\"><url><loc>https://site/a</loc>"
                + "</url></urlset>";
        ByteArrayOutputStream gz = new ByteArrayOutputStream();
        try (GZIPOutputStream out = new GZIPOutputStream(gz)) {
            out.write(xml.getBytes(StandardCharsets.UTF_8));
        }
        Sitemap map = Sitemap.parse(Crawl.gunzipped(gz.toByteArray()));
        assertThat(map.broken()).isFalse();
        assertThat(map.urls()).containsExactly("https://site/a");
        byte[] plain = xml.getBytes(StandardCharsets.UTF_8);
        assertThat(Crawl.gunzipped(plain)).isSameAs(plain);
    }
}
