package io.polyrag.source.web;

import java.io.ByteArrayInputStream;
import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.Deque;
import java.util.List;
import javax.xml.stream.XMLInputFactory;
import javax.xml.stream.XMLStreamConstants;
import javax.xml.stream.XMLStreamException;

/** A sitemap (urlset) or sitemap index, read with a parser that resolves no entity and loads no DTD. */
public record Sitemap(List<String> urls, List<String> sitemaps, boolean broken, boolean cut) {
    /** The most URLs one sitemap yields. */
    static final int MAX_URLS = 50_000;

    /** What parses of it, up to the first error ({@code broken} then). */
    static Sitemap parse(byte[] xml) {
        List<String> urls = new ArrayList<>();
        List<String> maps = new ArrayList<>();
        try {
            XMLInputFactory f = XMLInputFactory.newFactory();
            f.setProperty(XMLInputFactory.SUPPORT_DTD, false);
            f.setProperty(XMLInputFactory.IS_SUPPORTING_EXTERNAL_ENTITIES, false);
            var r = f.createXMLStreamReader(new ByteArrayInputStream(xml));
            boolean index = false;
            // A <loc> counts only as the child of a <url> or <sitemap>: an image sitemap's <image:loc> (which
            // WordPress plugins write by default) names an image, not a page.
            Deque<String> open = new ArrayDeque<>();
            while (r.hasNext()) {
                int event = r.next();
                if (event == XMLStreamConstants.START_ELEMENT) {
                    String name = r.getLocalName();
                    if (name.equals("sitemapindex")) {
                        index = true;
                    }
                    if (name.equals("loc") && ("url".equals(open.peek()) || "sitemap".equals(open.peek()))) {
                        // Cut only by an entry past the limit: one of exactly 50,000 (the protocol's most) is whole.
                        if (urls.size() + maps.size() >= MAX_URLS) {
                            return new Sitemap(urls, maps, false, true);
                        }
                        (index ? maps : urls).add(r.getElementText().strip());
                    } else {
                        open.push(name);
                    }
                } else if (event == XMLStreamConstants.END_ELEMENT && !open.isEmpty()) {
                    open.pop();
                }
            }
        } catch (XMLStreamException | RuntimeException e) {
            // The JDK's parser also throws unchecked ones on some malformed DTDs (found by fuzzing: a
            // MissingResourceException for "InvalidCharInDTD"); a broken sitemap never fails the crawl.
            return new Sitemap(urls, maps, true, false);
        }
        return new Sitemap(urls, maps, false, false);
    }
}
