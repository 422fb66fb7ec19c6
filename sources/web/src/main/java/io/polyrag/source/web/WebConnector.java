package io.polyrag.source.web;

import io.polyrag.core.InvalidInputException;
import io.polyrag.core.config.Config;
import io.polyrag.core.config.Settings;
import io.polyrag.core.http.Outbound;
import io.polyrag.core.model.Ids;
import io.polyrag.core.port.SourceConnector;
import java.io.IOException;
import java.net.URI;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * Sources of type {@code web}: a breadth-first crawl from start URLs (and the URLs the site's sitemap lists), within
 * one host and a path prefix, to page and depth limits, honouring robots.txt and each page's {@code nofollow}
 * ({@link Crawl}). Items are pages by URL; every request is conditional on what the last sync saw (ETag,
 * Last-Modified), so an unchanged page costs a 304 and is never re-read. A page that answers 404 or 410 is gone; a
 * page no longer reached is gone only after a complete crawl — one that neither hit the page limit nor failed
 * anywhere — so a flaky site or a lower limit never deletes what it merely did not see. No address that is not public
 * is fetched unless {@code sync.web.allow.private} is on; every redirect hop is checked again.
 */
public final class WebConnector implements SourceConnector {
    public static final String TYPE = "web";
    static final List<String> KEYS = List.of("start_urls", "path_prefix", "max_pages", "max_depth", "skip_graph");
    private static final int MAX_START_URLS = 20;

    private final Config config;
    /** Made at the first crawl (an HTTP client holds a selector thread). */
    private volatile Outbound http;

    WebConnector(Config config) {
        this.config = config;
    }

    @Override
    public String type() {
        return TYPE;
    }

    /** A crawl restarts from its start URLs: a stopped one cannot pick up where it was. */
    @Override
    public boolean resumable() {
        return false;
    }

    @Override
    public Map<String, Object> checked(Map<String, Object> given, Host host) {
        SourceConnector.onlyKeys(given, "a web setting", KEYS);
        if (!(given.get("start_urls") instanceof List<?> starts) || starts.isEmpty()
                || starts.size() > MAX_START_URLS) {
            throw new InvalidInputException("'config.start_urls' must be a list of 1-" + MAX_START_URLS + " URLs, e.g. "
                    + "[\"https://docs.example.com/\"]");
        }
        List<String> urls = new ArrayList<>();
        URI first = null;
        for (Object o : starts) {
            URI u = Fetch.withoutDefaultPort(Fetch.url(o instanceof String s ? s : null));
            if (u == null) {
                throw new InvalidInputException("'config.start_urls' holds '" + Ids.abbreviate(String.valueOf(o), 80)
                        + "': give absolute http:// or https:// URLs without user info");
            }
            if (first != null && !Fetch.sameSite(first, u)) {
                throw new InvalidInputException("'config.start_urls' must all be on one site (" + Fetch.origin(first)
                        + "); register a source per site");
            }
            first = first == null ? u : first;
            urls.add(u.toString());
        }
        Object prefix = given.getOrDefault("path_prefix", "/");
        if (!(prefix instanceof String p) || !p.startsWith("/") || p.length() > 512) {
            throw new InvalidInputException("'config.path_prefix' must be a path starting with '/', e.g. \"/guide/\"");
        }
        for (String u : urls) {
            if (!Fetch.under(URI.create(u).getRawPath(), p)) {
                throw new InvalidInputException("'config.start_urls' holds " + u + ", outside 'config.path_prefix' "
                        + p + ": a start URL must lie inside the prefix");
            }
        }
        Map<String, Object> out = new LinkedHashMap<>();
        out.put("start_urls", urls);
        out.put("path_prefix", p);
        out.put("max_pages", bounded(given.get("max_pages"), "max_pages", 100, 1, 100_000));
        out.put("max_depth", bounded(given.get("max_depth"), "max_depth", 3, 0, 20));
        out.put("skip_graph", SourceConnector.flag(given, "skip_graph", false));
        // Last: the one check that asks the network (a name lookup).
        String refused = Fetch.refusal(first.getHost(), host.config().get(Settings.SYNC_WEB_ALLOW_PRIVATE));
        if (refused != null) {
            throw new InvalidInputException("'config.start_urls': " + refused);
        }
        return out;
    }

    private static int bounded(Object value, String field, int dflt, int min, int max) {
        if (value == null) {
            return dflt;
        }
        if (!(value instanceof Integer n) || n < min || n > max) {
            throw new InvalidInputException("'config." + field + "' must be a whole number from " + min + " to " + max
                    + ", was " + Ids.abbreviate(String.valueOf(value), 20));
        }
        return n;
    }

    @Override
    public Listing list(Map<String, Object> source, Host host) throws Unavailable {
        return Crawl.start(source, host, client(), config.get(Settings.SYNC_WEB_ALLOW_PRIVATE),
                config.get(Settings.SYNC_WEB_MAX_PAGE_MB) * 1024L * 1024L);
    }

    /** Never called: a crawl hands every page it lists with its content (fetching is how it finds them). */
    @Override
    public Content read(Map<String, Object> source, Listed item, Host host) throws IOException {
        throw new IOException(item.item() + ": a web page is read when it is crawled");
    }

    private Outbound client() {
        Outbound c = http;
        if (c == null) {
            synchronized (this) {
                c = http;
                if (c == null) {
                    c = Fetch.client(config);
                    http = c;
                }
            }
        }
        return c;
    }
}
