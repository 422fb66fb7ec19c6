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
        Sitemap map = Sitemap.parse(Fetch.gunzipped(gz.toByteArray()));
        assertThat(map.broken()).isFalse();
        assertThat(map.urls()).containsExactly("https://site/a");
        byte[] plain = xml.getBytes(StandardCharsets.UTF_8);
        assertThat(Fetch.gunzipped(plain)).isSameAs(plain);
    }

    /** An image sitemap's locations are images, not pages: only a url's (or an index's sitemap's) own loc counts. */
    @Test
    void only_the_loc_of_a_url_or_a_sitemap_counts() {
        Sitemap pages = Sitemap.parse(("<urlset xmlns=\"http://www.sitemaps.org/schemas/sitemap/0.9\" xmlns:image=\""
                + "http://www.google.com/schemas/sitemap-image/1.1\"><url><loc>https://site/a</loc><image:image>"
                + "<image:loc>https://site/a.jpg</image:loc></image:image></url><url><image:image><image:loc>"
                + "https://site/b.jpg</image:loc></image:image><loc>https://site/b</loc></url></urlset>")
                .getBytes(StandardCharsets.UTF_8));
        assertThat(pages.broken()).isFalse();
        assertThat(pages.urls()).containsExactly("https://site/a", "https://site/b");
        Sitemap index = Sitemap.parse(("<sitemapindex xmlns=\"http://www.sitemaps.org/schemas/sitemap/0.9\"><sitemap>"
                + "<loc>https://site/s1.xml</loc></sitemap></sitemapindex>").getBytes(StandardCharsets.UTF_8));
        assertThat(index.sitemaps()).containsExactly("https://site/s1.xml");
        assertThat(pages.cut()).isFalse();
    }

    /** Past 50,000 entries a sitemap is read in part, and says so: the pages after the cut are not judged deleted. */
    @Test
    void a_sitemap_past_the_limit_says_it_was_cut() {
        StringBuilder xml = new StringBuilder("<urlset xmlns=\"http://www.sitemaps.org/schemas/sitemap/0.9\">");
        for (int i = 0; i < Sitemap.MAX_URLS; i++) {
            xml.append("<url><loc>https://site/p").append(i).append("</loc></url>");
        }
        Sitemap full = Sitemap.parse((xml + "</urlset>").getBytes(StandardCharsets.UTF_8));
        assertThat(full.urls()).hasSize(Sitemap.MAX_URLS);
        assertThat(full.cut()).as("the protocol's most, whole").isFalse();
        xml.append("<url><loc>https://site/one-more</loc></url>");
        Sitemap big = Sitemap.parse(xml.append("</urlset>").toString().getBytes(StandardCharsets.UTF_8));
        assertThat(big.urls()).hasSize(Sitemap.MAX_URLS);
        assertThat(big.cut()).isTrue();
        assertThat(big.broken()).isFalse();
    }
}
