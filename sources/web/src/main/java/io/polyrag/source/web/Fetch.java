package io.polyrag.source.web;

import io.polyrag.core.config.Config;
import io.polyrag.core.config.Settings;
import io.polyrag.core.http.Outbound;
import io.polyrag.core.http.OutboundException;
import io.polyrag.core.http.PublicOnlyResolver;
import io.polyrag.core.model.SyncItem;
import java.io.ByteArrayInputStream;
import java.io.IOException;
import java.net.URI;
import java.net.URISyntaxException;
import java.nio.charset.Charset;
import java.nio.charset.IllegalCharsetNameException;
import java.nio.charset.StandardCharsets;
import java.nio.charset.UnsupportedCharsetException;
import java.time.Duration;
import java.time.Instant;
import java.time.ZoneOffset;
import java.time.ZonedDateTime;
import java.time.format.DateTimeFormatter;
import java.time.format.DateTimeParseException;
import java.util.LinkedHashMap;
import java.util.Locale;
import java.util.Map;
import java.util.Set;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import java.util.zip.GZIPInputStream;

/** What fetching a page takes: the client, the address check, URLs normalised, and the conditional request. */
final class Fetch {
    static final String AGENT = "polyrag";
    private static final int MAX_URL_CHARS = 2048;
    private static final Pattern CHARSET = Pattern.compile(";\\s*charset\\s*=\\s*\"?([A-Za-z0-9_.:-]{1,40})",
            Pattern.CASE_INSENSITIVE);

    private Fetch() {
    }

    /** The one outbound client of web sources, with the configured timeout and two retries of transient failures. */
    static Outbound client(Config config) {
        Duration t = Duration.ofSeconds(config.get(Settings.SYNC_WEB_TIMEOUT_SECONDS));
        return new Outbound("web", t, t, 2, Thread::sleep);
    }

    /**
     * Why a host may not be fetched, or null: it does not resolve, or (unless allowed) one of its addresses is not
     * public — loopback, private, link-local (cloud metadata), carrier-grade NAT, unique-local, multicast, unspecified.
     */
    static String refusal(String host, boolean allowPrivate) {
        return PublicOnlyResolver.refusal(host, allowPrivate, "web sources", Settings.SYNC_WEB_ALLOW_PRIVATE.env());
    }

    /** An absolute http(s) URL without user info or fragment, or null. */
    static URI url(String s) {
        if (s == null || s.isBlank() || s.length() > MAX_URL_CHARS) {
            return null;
        }
        try {
            URI u = new URI(s.strip()).normalize();
            String scheme = u.getScheme() == null ? "" : u.getScheme().toLowerCase(Locale.ROOT);
            if (!(scheme.equals("http") || scheme.equals("https")) || u.getHost() == null || u.getRawUserInfo() != null) {
                return null;
            }
            String path = u.getRawPath() == null || u.getRawPath().isEmpty() ? "/" : u.getRawPath();
            return new URI(scheme + "://" + u.getRawAuthority().toLowerCase(Locale.ROOT) + path
                    + (u.getRawQuery() == null ? "" : "?" + u.getRawQuery()));
        } catch (URISyntaxException e) {
            return null;
        }
    }

    /**
     * A start URL without its scheme's own port ({@code https://host:443/docs/} is {@code https://host/docs/}): kept,
     * every absolute link and sitemap entry, written without it, was judged off-site. Applied where a source's start
     * URLs are saved, not to every URL: a source saved with the port before keeps its pages' recorded addresses.
     */
    static URI withoutDefaultPort(URI u) {
        if (u == null || u.getPort() != (u.getScheme().equals("https") ? 443 : 80)) {
            return u;
        }
        String authority = u.getRawAuthority();
        return URI.create(u.getScheme() + "://" + authority.substring(0, authority.lastIndexOf(':')) + u.getRawPath()
                + (u.getRawQuery() == null ? "" : "?" + u.getRawQuery()));
    }

    static String origin(URI u) {
        return u.getScheme() + "://" + u.getRawAuthority();
    }

    static boolean sameSite(URI u, URI first) {
        return origin(u).equals(origin(first));
    }

    /** A link resolved against its page, without fragment; null when it is not an http(s) URL. */
    static URI resolve(URI page, String href) {
        if (href == null || href.isBlank()) {
            return null;
        }
        try {
            return url(page.resolve(new URI(href.strip().replace(" ", "%20"))).toString());
        } catch (URISyntaxException | IllegalArgumentException e) {
            return null;
        }
    }

    /**
     * The headers of a request conditional on what the last sync saw (ETag, Last-Modified). A page recorded without
     * a document (it held no text) is asked for whole: its links are not kept anywhere else.
     */
    static Map<String, String> conditional(SyncItem before) {
        Map<String, String> h = new LinkedHashMap<>();
        h.put("User-Agent", AGENT);
        // No content coding: a request without Accept-Encoding takes any (RFC 9110), and a site serving its pages
        // gzipped (pre-compressed on S3) had them indexed as binary and their links lost.
        h.put("Accept-Encoding", "identity");
        if (before == null || before.documentId().isEmpty()) {
            return h;
        }
        if (!before.validator().isEmpty()) {
            h.put("If-None-Match", before.validator());
        }
        if (before.modifiedMs() > 0) {
            h.put("If-Modified-Since", DateTimeFormatter.RFC_1123_DATE_TIME.format(ZonedDateTime.ofInstant(
                    Instant.ofEpochMilli(before.modifiedMs()), ZoneOffset.UTC)));
        }
        return h;
    }

    static long lastModified(String header) {
        if (header == null) {
            return 0;
        }
        try {
            return ZonedDateTime.parse(header.strip(), DateTimeFormatter.RFC_1123_DATE_TIME).toInstant().toEpochMilli();
        } catch (DateTimeParseException e) {
            return 0;
        }
    }

    /**
     * A text page's bytes as UTF-8 behind a byte-order mark when its Content-Type names another charset and the
     * page has no mark of its own. The header outranks a charset the page declares inside, as browsers read it (a
     * server that sets windows-1251 for a site whose old pages say otherwise), and the mark outranks that declaration
     * for every later reader: the parser, and the original served back. Anything else is returned as it came.
     */
    static byte[] inDeclaredCharset(byte[] body, String contentType) {
        String type = mediaType(contentType);
        if (body.length == 0 || !(type.startsWith("text/") || type.equals("application/xhtml+xml"))
                || body.length >= 2 && ((body[0] & 0xFF) == 0xFF && (body[1] & 0xFF) == 0xFE
                        || (body[0] & 0xFF) == 0xFE && (body[1] & 0xFF) == 0xFF)
                || body.length >= 3 && (body[0] & 0xFF) == 0xEF && (body[1] & 0xFF) == 0xBB
                        && (body[2] & 0xFF) == 0xBF) {
            return body;
        }
        Matcher m = CHARSET.matcher(contentType);
        Charset charset;
        try {
            charset = m.find() ? Charset.forName(m.group(1)) : null;
        } catch (IllegalCharsetNameException | UnsupportedCharsetException e) {
            charset = null;   // a name the JDK does not know: the page is read as if none were given
        }
        if (charset == null || charset.equals(StandardCharsets.UTF_8) || charset.equals(StandardCharsets.US_ASCII)
                || !charset.canEncode()) {
            return body;
        }
        // As browsers do (WHATWG Encoding): a page labelled Latin-1 is read as windows-1252, its superset.
        Charset read = charset.equals(StandardCharsets.ISO_8859_1) ? Charset.forName("windows-1252") : charset;
        byte[] utf8 = new String(body, read).getBytes(StandardCharsets.UTF_8);
        byte[] out = new byte[utf8.length + 3];
        out[0] = (byte) 0xEF;
        out[1] = (byte) 0xBB;
        out[2] = (byte) 0xBF;
        System.arraycopy(utf8, 0, out, 3, utf8.length);
        return out;
    }

    static String mediaType(String contentType) {
        if (contentType == null) {
            return "application/octet-stream";
        }
        int semi = contentType.indexOf(';');
        return (semi < 0 ? contentType : contentType.substring(0, semi)).strip().toLowerCase(Locale.ROOT);
    }

    /** A file name for a page, with an extension its type implies, so the parser and the UI name it well. */
    static String name(URI u, String type) {
        String path = u.getPath() == null ? "" : u.getPath();
        String last = path.substring(path.lastIndexOf('/') + 1);
        String base = last.isEmpty() ? u.getHost() : last;
        String ext = switch (type) {
            case "text/html", "application/xhtml+xml" -> ".html";
            case "text/markdown" -> ".md";
            case "application/pdf" -> ".pdf";
            case "text/csv" -> ".csv";
            default -> ".txt";
        };
        return base.toLowerCase(Locale.ROOT).endsWith(ext) ? base : base + ext;
    }

    /**
     * A sitemap as XML: one served gzipped ({@code sitemap.xml.gz}, which sitemaps.org allows) is inflated, at most
     * 50 MiB of it (a bomb reads as a sitemap cut short). Unread, every crawl of such a site was incomplete, so nothing
     * removed from it was ever deleted.
     */
    static byte[] gunzipped(byte[] body) {
        return gunzipped(body, 50 * 1024 * 1024);
    }

    /** {@code body} inflated when it is gzip, at most {@code limit} bytes of it; as it came otherwise. */
    static byte[] gunzipped(byte[] body, long limit) {
        if (body.length < 2 || (body[0] & 0xff) != 0x1f || (body[1] & 0xff) != 0x8b) {
            return body;
        }
        try (GZIPInputStream in = new GZIPInputStream(new ByteArrayInputStream(body))) {
            return in.readNBytes((int) Math.min(Integer.MAX_VALUE - 16, limit));
        } catch (IOException e) {
            return body;
        }
    }

    /**
     * Whether a path lies under the prefix, on a segment boundary ({@code /handbook} holds {@code /handbook/a}, not
     * {@code /handbook-2019/b}), once dot segments written as escapes ({@code /docs/%2e%2e/private}) are read as what
     * a server makes of them.
     */
    static boolean under(String rawPath, String prefix) {
        if (rawPath == null) {
            return false;
        }
        // An escaped slash too ("/docs/..%2Fadmin"): servers such as nginx decode it, then resolve the dots.
        String path = rawPath.replaceAll("(?i)%2e", ".").replaceAll("(?i)%2f|%5c", "/");
        if (path.contains("/../") || path.endsWith("/..") || path.contains("/./") || path.endsWith("/.")) {
            return false;
        }
        return path.startsWith(prefix) && (prefix.endsWith("/") || path.length() == prefix.length()
                || path.charAt(prefix.length()) == '/');
    }

    /** Whether a redirect's target is a sign-in page: its query names where to return to once signed in. */
    static boolean signIn(URI to) {
        String q = to.getRawQuery();
        return q != null && q.matches("(?i)(.*&)?(next|return[a-z_]*|redirect[a-z_]*|continue|came_?from|goto|"
                + "destination|target)=.*");
    }

    /** robots.txt, following up to five redirects (RFC 9309), each hop checked like any fetch. */
    static Robots robots(Outbound http, URI first, boolean allowPrivate, int maxRedirects, Set<Integer> redirects) {
        URI at = URI.create(origin(first) + "/robots.txt");
        for (int hop = 0; hop <= maxRedirects; hop++) {
            String refused = Fetch.refusal(at.getHost(), allowPrivate);
            if (refused != null) {
                throw new OutboundException("web", 0, "robots.txt redirects to " + at + ": " + refused, null);
            }
            // As pages are asked for: no content coding; one sent anyway (a pre-compressed file on a CDN) is
            // inflated, or its rules read as binary were none.
            Outbound.Response r = http.get(at, Map.of("User-Agent", Fetch.AGENT, "Accept-Encoding", "identity"),
                    512 * 1024);
            if (redirects.contains(r.status())) {
                URI to = Fetch.resolve(at, r.header("location"));
                if (to == null) {
                    return Robots.parse("", Fetch.AGENT);
                }
                at = to;
                continue;
            }
            if (r.status() / 100 == 2) {
                return Robots.parse(new String(Fetch.gunzipped(r.body(), 512 * 1024), StandardCharsets.UTF_8),
                        Fetch.AGENT);
            }
            // RFC 9309: a 4xx means no rules (5xx was retried, then thrown by the client).
            return Robots.parse("", Fetch.AGENT);
        }
        return Robots.parse("", Fetch.AGENT);
    }
}
