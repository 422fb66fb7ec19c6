package io.polyrag.app;

import io.polyrag.core.InvalidInputException;
import io.polyrag.core.config.Settings;
import io.polyrag.core.http.Outbound;
import io.polyrag.core.http.OutboundException;
import io.polyrag.core.model.ItemError;
import io.polyrag.core.model.JobProgress;
import io.polyrag.core.model.KnowledgeBase;
import io.polyrag.core.model.Source;
import io.polyrag.core.model.SourceItem;
import io.polyrag.core.model.SyncItem;
import io.polyrag.core.port.ProgressListener;
import java.net.InetAddress;
import java.net.URI;
import java.net.URISyntaxException;
import java.net.UnknownHostException;
import java.time.Duration;
import java.time.Instant;
import java.time.ZoneOffset;
import java.time.ZonedDateTime;
import java.time.format.DateTimeFormatter;
import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.HashSet;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Set;

/**
 * One sync of a {@code web} source: a breadth-first crawl from its start URLs (and the URLs its sitemap lists),
 * within one host and a path prefix, to its page and depth limits, honouring robots.txt (RFC 9309, for the agent
 * {@code polyrag}: the longest matching rule wins, an allow wins a tie; a crawl delay up to 10 s) and each page's
 * {@code nofollow}. Every request is conditional on what the last sync saw (ETag, Last-Modified), so an unchanged
 * page costs a 304 and is never re-read; its links come from its stored original. A changed or new page is ingested
 * through the normal pipeline, with its original kept; a page that answers 404 or 410 is removed from every store.
 * A page no longer reached is removed only after a complete crawl — one that neither hit the page limit nor failed
 * anywhere — so a flaky site or a lower limit never deletes what it merely did not see. No address that is not
 * public is fetched unless {@code sync.web.allow.private} is on; every redirect hop is checked again.
 */
final class WebCrawl {
    static final String TYPE = "web";
    static final String AGENT = "polyrag";
    static final List<String> KEYS = List.of("start_urls", "path_prefix", "max_pages", "max_depth", "skip_graph");
    private static final int BATCH = 16;
    private static final int MAX_START_URLS = 20;
    private static final int MAX_URL_CHARS = 2048;
    private static final int MAX_SITEMAP_URLS = 50_000;
    private static final Set<Integer> REDIRECTS = Set.of(301, 302, 303, 307, 308);
    private static final Set<String> READABLE = Set.of("text/html", "application/xhtml+xml", "text/plain",
            "text/markdown", "application/pdf", "text/csv");

    private final Components components;
    private final Polyrag.TenantFacets facets;
    private final Outbound http;
    private final boolean allowPrivate;
    private final long maxBytes;
    private final Map<String, String> refusedHosts = new HashMap<>();

    WebCrawl(Components components, Polyrag.TenantFacets facets, Outbound http) {
        this.components = components;
        this.facets = facets;
        this.http = http;
        this.allowPrivate = components.config.get(Settings.SYNC_WEB_ALLOW_PRIVATE);
        this.maxBytes = components.config.get(Settings.SYNC_WEB_MAX_PAGE_MB) * 1024L * 1024L;
    }

    /** The one outbound client of web sources, with the configured timeout and two retries of transient failures. */
    static Outbound client(io.polyrag.core.config.Config config) {
        Duration t = Duration.ofSeconds(config.get(Settings.SYNC_WEB_TIMEOUT_SECONDS));
        return new Outbound("web", t, t, 2, Thread::sleep);
    }

    /** Checks a web source's settings, naming the field and the fix; returns them normalised. */
    static Map<String, Object> checked(Map<String, Object> config, boolean allowPrivate) {
        for (String k : config.keySet()) {
            if (!KEYS.contains(k)) {
                throw new InvalidInputException("'config." + k + "' is not a web setting: use " + String.join(", ",
                        KEYS));
            }
        }
        if (!(config.get("start_urls") instanceof List<?> starts) || starts.isEmpty()
                || starts.size() > MAX_START_URLS) {
            throw new InvalidInputException("'config.start_urls' must be a list of 1-" + MAX_START_URLS + " URLs, e.g. "
                    + "[\"https://docs.example.com/\"]");
        }
        List<String> urls = new ArrayList<>();
        URI first = null;
        for (Object o : starts) {
            URI u = url(o instanceof String s ? s : null);
            if (u == null) {
                throw new InvalidInputException("'config.start_urls' holds '" + io.polyrag.core.model.Ids.abbreviate(
                        String.valueOf(o), 80) + "': give absolute http:// or https:// URLs without user info");
            }
            if (first != null && !origin(first).equals(origin(u))) {
                throw new InvalidInputException("'config.start_urls' must all be on one site (" + origin(first)
                        + "); register a source per site");
            }
            first = first == null ? u : first;
            urls.add(u.toString());
        }
        Object prefix = config.getOrDefault("path_prefix", "/");
        if (!(prefix instanceof String p) || !p.startsWith("/") || p.length() > 512) {
            throw new InvalidInputException("'config.path_prefix' must be a path starting with '/', e.g. \"/guide/\"");
        }
        for (String u : urls) {
            if (!URI.create(u).getRawPath().startsWith(p)) {
                throw new InvalidInputException("'config.start_urls' holds " + u + ", outside 'config.path_prefix' "
                        + p + ": a start URL must lie inside the prefix");
            }
        }
        Map<String, Object> out = new LinkedHashMap<>();
        out.put("start_urls", urls);
        out.put("path_prefix", p);
        out.put("max_pages", bounded(config.get("max_pages"), "max_pages", 100, 1, 100_000));
        out.put("max_depth", bounded(config.get("max_depth"), "max_depth", 3, 0, 20));
        Object skip = config.getOrDefault("skip_graph", false);
        if (!(skip instanceof Boolean)) {
            throw new InvalidInputException("'config.skip_graph' must be true or false");
        }
        out.put("skip_graph", skip);
        // Last: the one check that asks the network (a name lookup).
        String refused = refusal(first.getHost(), allowPrivate);
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
                    + ", was " + io.polyrag.core.model.Ids.abbreviate(String.valueOf(value), 20));
        }
        return n;
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

    private static String origin(URI u) {
        return u.getScheme() + "://" + u.getRawAuthority();
    }

    /**
     * Why a host may not be fetched, or null: it does not resolve, or (unless allowed) one of its addresses is not
     * public — loopback, private, link-local (cloud metadata), carrier-grade NAT, unique-local, multicast, unspecified.
     */
    static String refusal(String host, boolean allowPrivate) {
        InetAddress[] addresses;
        try {
            addresses = InetAddress.getAllByName(host);
        } catch (UnknownHostException e) {
            String why = PublicOnlyResolver.refused(host);
            return why != null ? "the host " + why + ": web sources reach the public internet only ("
                    + Settings.SYNC_WEB_ALLOW_PRIVATE.env() + "=true lets them reach this network)"
                    : "the host " + host + " does not resolve";
        }
        if (allowPrivate) {
            return null;
        }
        for (InetAddress a : addresses) {
            if (!PublicOnlyResolver.isPublic(a)) {
                return "the host " + host + " is at " + a.getHostAddress() + ", which is not a public address: web "
                        + "sources reach the public internet only (" + Settings.SYNC_WEB_ALLOW_PRIVATE.env()
                        + "=true lets them reach this network)";
            }
        }
        // Public now: from here on every lookup of this name in the JVM (the HTTP client's at connect time too)
        // keeps public addresses only. A name found private is refused and never guarded, so registering one
        // cannot change how the server resolves its own services.
        PublicOnlyResolver.guard(host);
        return null;
    }

    /** A URL to fetch, its link depth, and how many redirects led to it. */
    private record Page(URI uri, int depth, int hops) {
    }

    private static final int MAX_REDIRECTS = 5;

    /** Crawls once, reconciling the index with what was found; the job's progress as it goes. */
    JobProgress run(io.polyrag.core.model.Tenant owner, Source source, Map<String, Object> config,
            Map<String, SyncItem> state, JobHandler.Context context) {
        String tenant = source.tenant();
        @SuppressWarnings("unchecked")
        List<String> starts = (List<String>) config.get("start_urls");
        URI first = URI.create(starts.getFirst());
        String prefix = (String) config.get("path_prefix");
        int maxPages = (Integer) config.get("max_pages");
        int maxDepth = (Integer) config.get("max_depth");
        boolean skipGraph = Boolean.TRUE.equals(config.get("skip_graph"));
        KnowledgeBase kb = KnowledgeBase.of(owner.show(source.knowledgeBase()));
        List<ItemError> errors = new ArrayList<>();
        List<String> warnings = new ArrayList<>();

        String refusedSite = refusal(first.getHost(), allowPrivate);
        if (refusedSite != null) {
            components.catalog.sourceScanned(tenant, source.id(), Instant.now(), refusedSite);
            return new JobProgress("done", 1, 1, 0, 0, 0, 1, 0, List.of(), List.of(new ItemError(origin(first),
                    refusedSite + ": nothing was crawled or changed")));
        }
        Robots robots;
        try {
            robots = robots(first);
        } catch (OutboundException e) {
            String error = "robots.txt of " + origin(first) + " could not be read (" + e.getMessage() + "): nothing "
                    + "was crawled or changed";
            components.catalog.sourceScanned(tenant, source.id(), Instant.now(), error);
            return new JobProgress("done", 1, 1, 0, 0, 0, 1, 0, List.of(), List.of(new ItemError(origin(first),
                    error)));
        }
        ArrayDeque<Page> frontier = new ArrayDeque<>();
        Set<String> queued = new HashSet<>();
        // At most ten URLs queued per page allowed (and 100,000): a site of endless links cannot fill the heap.
        int maxQueued = (int) Math.min(100_000L, 10L * maxPages + starts.size());
        boolean[] capped = {false};
        java.util.function.BiConsumer<URI, Integer> enqueue = (u, depth) -> {
            if (u != null && sameSite(u, first) && u.getRawPath().startsWith(prefix) && !queued.contains(u.toString())) {
                if (queued.size() >= maxQueued) {
                    capped[0] = true;
                    return;
                }
                queued.add(u.toString());
                frontier.add(new Page(u, depth, 0));
            }
        };
        starts.forEach(s -> enqueue.accept(URI.create(s), 0));
        boolean[] sitemapFailed = {false};
        for (URI u : sitemapUrls(first, robots, warnings, sitemapFailed)) {
            enqueue.accept(u, 0);
        }

        Map<String, SyncItem> seen = new LinkedHashMap<>();
        Set<String> kept = new HashSet<>();
        List<String> gone = new ArrayList<>();
        List<SyncItem> touched = new ArrayList<>();
        Map<String, SourceItem> toIngest = new LinkedHashMap<>();
        Map<String, SyncItem> pending = new HashMap<>();
        int[] counts = new int[4]; // fetched, unchanged, added, updated
        int chunks = 0;
        boolean incomplete = sitemapFailed[0];
        Duration delay = robots.crawlDelay();
        while (!frontier.isEmpty() && counts[0] < maxPages && !context.canceled()) {
            Page page = frontier.poll();
            String url = page.uri().toString();
            if (!robots.allowed(page.uri())) {
                continue;
            }
            String refused = refusedHosts.computeIfAbsent(page.uri().getHost(), h -> {
                String r = refusal(h, allowPrivate);
                return r == null ? "" : r;
            });
            if (!refused.isEmpty()) {
                errors.add(new ItemError(url, refused));
                incomplete = true;
                continue;
            }
            if (counts[0] > 0 && !delay.isZero()) {
                pause(delay);
            }
            SyncItem before = state.get(url);
            Outbound.Response r;
            try {
                r = http.get(page.uri(), conditional(before), maxBytes);
            } catch (OutboundException e) {
                String why = PublicOnlyResolver.refused(page.uri().getHost());
                errors.add(new ItemError(url, why != null ? url + ": " + why + " (refused when connecting)"
                        : e.getMessage()));
                kept.add(url);
                incomplete = true;
                continue;
            }
            counts[0]++;
            int status = r.status();
            if (REDIRECTS.contains(status)) {
                URI to = resolve(page.uri(), r.header("location"));
                if (to != null && !sameSite(to, first)) {
                    warnings.add(url + " redirects off the site, to " + to + ": not followed");
                    if (starts.contains(url)) {
                        // The site moved (http → https, a new host): nothing it held may be taken as deleted.
                        incomplete = true;
                        errors.add(new ItemError(url, "the start URL " + url + " redirects to another site, " + to
                                + ": register that site instead"));
                    }
                } else if (page.hops() >= MAX_REDIRECTS) {
                    errors.add(new ItemError(url, url + ": more than " + MAX_REDIRECTS + " redirects in a row"));
                } else if (to != null && to.getRawPath().startsWith(prefix) && queued.add(to.toString())) {
                    // Ahead of the rest: the redirect is this page's answer, at its depth.
                    frontier.addFirst(new Page(to, page.depth(), page.hops() + 1));
                }
                continue;
            }
            if (status == 304 && before != null) {
                seen.put(url, before);
                counts[1]++;
                if (page.depth() < maxDepth) {
                    List<String> stored = storedLinks(before);
                    if (stored == null) {
                        // Its links are unknown: what lies below it cannot be judged deleted this time.
                        incomplete = true;
                    } else {
                        stored.forEach(l -> enqueue.accept(resolve(page.uri(), l), page.depth() + 1));
                    }
                }
                continue;
            }
            if (status == 404 || status == 410) {
                if (before != null) {
                    gone.add(url);
                }
                continue;
            }
            if (status / 100 != 2) {
                errors.add(new ItemError(url, url + " answered HTTP " + status));
                kept.add(url);
                incomplete = true;
                continue;
            }
            if (r.truncated()) {
                errors.add(new ItemError(url, url + " is larger than " + maxBytes / (1024 * 1024) + " MiB ("
                        + Settings.SYNC_WEB_MAX_PAGE_MB.env() + "): skipped"));
                kept.add(url);
                continue;
            }
            String type = mediaType(r.header("content-type"));
            if (!READABLE.contains(type)) {
                continue;
            }
            String hash = io.polyrag.core.model.Ids.sha256Hex(r.body());
            String etag = r.header("etag");
            SyncItem now = new SyncItem(url, lastModified(r.header("last-modified")), r.body().length, hash,
                    before == null ? "" : before.documentId(), etag == null || etag.length() > 1000 ? "" : etag);
            seen.put(url, now);
            if (page.depth() < maxDepth && (type.equals("text/html") || type.equals("application/xhtml+xml"))) {
                links(url, r.body()).forEach(l -> enqueue.accept(resolve(page.uri(), l), page.depth() + 1));
            }
            if (before != null && before.hash().equals(hash)) {
                // Never indexed (no text): no validator, so it is fetched whole next time and its links followed.
                touched.add(before.documentId().isEmpty() ? new SyncItem(url, 0, now.sizeBytes(), hash, "", "") : now);
                counts[1]++;
            } else {
                toIngest.put(url, new SourceItem(url, name(page.uri(), type), r.body(), type));
                pending.put(url, now);
            }
            if (toIngest.size() >= BATCH) {
                chunks += ingest(tenant, source, kb, skipGraph, toIngest, pending, state, errors, counts);
            }
            context.progress(new JobProgress("crawling", Math.min(maxPages, counts[0] + frontier.size()), counts[0],
                    counts[2], counts[3], counts[1], errors.size(), chunks, List.of(), errors));
        }
        if (!toIngest.isEmpty() && !context.canceled()) {
            chunks += ingest(tenant, source, kb, skipGraph, toIngest, pending, state, errors, counts);
        }
        components.catalog.putSourceItems(tenant, source.id(), touched);
        boolean complete = frontier.isEmpty() && !incomplete && !context.canceled();
        if (!frontier.isEmpty()) {
            warnings.add("the page limit (" + maxPages + ") was reached with " + frontier.size() + " pages left: "
                    + "pages not reached were kept");
        }
        if (capped[0]) {
            complete = false;
            warnings.add("more links than " + maxQueued + " were found: the rest were not followed, and no page was "
                    + "taken as deleted");
        }
        Set<String> delete = new java.util.TreeSet<>(gone);
        if (complete) {
            state.keySet().stream().filter(k -> !seen.containsKey(k) && !kept.contains(k)).forEach(delete::add);
        }
        int deleted = 0;
        if (!delete.isEmpty() && !context.canceled()) {
            List<String> ids = delete.stream().map(k -> state.get(k).documentId()).filter(id -> !id.isEmpty())
                    .distinct().toList();
            deleted = ids.isEmpty() ? 0 : facets.documents().delete(ids);
            components.catalog.deleteSourceItems(tenant, source.id(), List.copyOf(delete));
        }
        components.catalog.sourceScanned(tenant, source.id(), Instant.now(), errors.isEmpty() ? null
                : errors.size() + " pages failed, e.g. " + errors.getFirst().reason());
        return new JobProgress("done", counts[0], counts[0], counts[2], counts[3], counts[1], errors.size(), chunks,
                components.pipeline.stores().names(), errors, 0, 0, 0, 0, warnings, deleted);
    }

    /** Ingests the pending pages, keeps their originals and records them; returns the chunks written. */
    private int ingest(String tenant, Source source, KnowledgeBase kb, boolean skipGraph,
            Map<String, SourceItem> toIngest, Map<String, SyncItem> pending, Map<String, SyncItem> state,
            List<ItemError> errors, int[] counts) {
        var report = facets.ingest().items(List.copyOf(toIngest.values()), kb, skipGraph, ProgressListener.NONE);
        counts[2] += report.added();
        counts[3] += report.updated();
        errors.addAll(report.errors());
        Map<String, String> byUri = new HashMap<>();
        report.indexed().forEach(d -> byUri.put(d.uri(), d.documentId()));
        List<SyncItem> recorded = new ArrayList<>();
        for (var e : toIngest.entrySet()) {
            SyncItem item = pending.get(e.getKey());
            String id = byUri.get(e.getKey());
            if (id != null) {
                SourceItem page = e.getValue();
                components.blobs.put(id, page.content(), page.mediaType(), page.name());
            }
            SyncItem before = state.get(e.getKey());
            // Not indexed (no text, a failing model): its hash is kept, so the same bytes are not ingested and failed
            // again at every sync, but no validator, so the next sync fetches it whole and still follows its links.
            recorded.add(id != null ? new SyncItem(item.item(), item.modifiedMs(), item.sizeBytes(), item.hash(), id,
                    item.validator()) : new SyncItem(item.item(), 0, item.sizeBytes(), item.hash(), before == null ? ""
                    : before.documentId(), ""));
        }
        components.catalog.putSourceItems(tenant, source.id(), recorded);
        toIngest.clear();
        pending.clear();
        return report.chunks();
    }

    private static boolean sameSite(URI u, URI first) {
        return origin(u).equals(origin(first));
    }

    private static Map<String, String> conditional(SyncItem before) {
        Map<String, String> h = new LinkedHashMap<>();
        h.put("User-Agent", AGENT);
        if (before != null && !before.validator().isEmpty()) {
            h.put("If-None-Match", before.validator());
        }
        if (before != null && before.modifiedMs() > 0) {
            h.put("If-Modified-Since", DateTimeFormatter.RFC_1123_DATE_TIME.format(ZonedDateTime.ofInstant(
                    Instant.ofEpochMilli(before.modifiedMs()), ZoneOffset.UTC)));
        }
        return h;
    }

    private static long lastModified(String header) {
        if (header == null) {
            return 0;
        }
        try {
            return ZonedDateTime.parse(header.strip(), DateTimeFormatter.RFC_1123_DATE_TIME).toInstant().toEpochMilli();
        } catch (java.time.format.DateTimeParseException e) {
            return 0;
        }
    }

    static String mediaType(String contentType) {
        if (contentType == null) {
            return "application/octet-stream";
        }
        int semi = contentType.indexOf(';');
        return (semi < 0 ? contentType : contentType.substring(0, semi)).strip().toLowerCase(Locale.ROOT);
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

    private List<String> links(String url, byte[] html) {
        try {
            return components.parser.links(new SourceItem(url, "page.html", html, "text/html"));
        } catch (RuntimeException e) {
            return List.of();
        }
    }

    /** The links of a page that answered 304: from the original kept when it was last fetched; null if it is gone. */
    private List<String> storedLinks(SyncItem before) {
        if (before.documentId().isEmpty()) {
            return null;
        }
        var blob = components.blobs.get(before.documentId());
        if (blob.isEmpty()) {
            return null;
        }
        try (var in = blob.get().content()) {
            byte[] bytes = in.readNBytes((int) Math.min(maxBytes, Integer.MAX_VALUE - 8));
            String type = mediaType(blob.get().mediaType());
            return type.equals("text/html") || type.equals("application/xhtml+xml") ? links(before.item(), bytes)
                    : List.of();
        } catch (java.io.IOException e) {
            return null;
        }
    }

    /** A file name for a page, with an extension its type implies, so the parser and the UI name it well. */
    private static String name(URI u, String type) {
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

    /** robots.txt, following up to five redirects (RFC 9309), each hop checked like any fetch. */
    private Robots robots(URI first) {
        URI at = URI.create(origin(first) + "/robots.txt");
        for (int hop = 0; hop <= MAX_REDIRECTS; hop++) {
            String refused = refusal(at.getHost(), allowPrivate);
            if (refused != null) {
                throw new OutboundException("web", 0, "robots.txt redirects to " + at + ": " + refused, null);
            }
            Outbound.Response r = http.get(at, Map.of("User-Agent", AGENT), 512 * 1024);
            if (REDIRECTS.contains(r.status())) {
                URI to = resolve(at, r.header("location"));
                if (to == null) {
                    return Robots.parse("", AGENT);
                }
                at = to;
                continue;
            }
            if (r.status() / 100 == 2) {
                return Robots.parse(new String(r.body(), java.nio.charset.StandardCharsets.UTF_8), AGENT);
            }
            // RFC 9309: a 4xx means no rules (5xx was retried, then thrown by the client).
            return Robots.parse("", AGENT);
        }
        return Robots.parse("", AGENT);
    }

    /**
     * The in-site URLs the site's sitemaps list (robots.txt's Sitemap lines, else /sitemap.xml), one index level.
     * A sitemap that fails (other than the default one being absent), is cut at 50 MiB or does not parse sets
     * {@code failed}: pages it may have listed cannot be judged deleted.
     */
    private List<URI> sitemapUrls(URI first, Robots robots, List<String> warnings, boolean[] failed) {
        boolean declared = !robots.sitemaps().isEmpty();
        List<String> maps = declared ? robots.sitemaps() : List.of(origin(first) + "/sitemap.xml");
        List<URI> out = new ArrayList<>();
        ArrayDeque<String> todo = new ArrayDeque<>(maps.stream().limit(5).toList());
        int fetched = 0;
        while (!todo.isEmpty() && fetched < 10 && out.size() < MAX_SITEMAP_URLS) {
            URI map = url(todo.poll());
            if (map == null || !sameSite(map, first)) {
                continue;
            }
            fetched++;
            try {
                Outbound.Response r = http.get(map, Map.of("User-Agent", AGENT), 50L * 1024 * 1024);
                if (r.status() == 404 && !declared && fetched == 1) {
                    continue;
                }
                if (r.status() / 100 != 2) {
                    failed[0] = true;
                    warnings.add("sitemap " + map + " answered HTTP " + r.status());
                    continue;
                }
                if (r.truncated()) {
                    failed[0] = true;
                    warnings.add("sitemap " + map + " is larger than 50 MiB: read in part");
                }
                Sitemap s = Sitemap.parse(r.body());
                if (s.broken()) {
                    failed[0] = true;
                    warnings.add("sitemap " + map + " is not well-formed XML: read up to the error");
                }
                s.sitemaps().stream().limit(20).forEach(todo::add);
                s.urls().stream().map(WebCrawl::url).filter(java.util.Objects::nonNull).forEach(out::add);
            } catch (OutboundException e) {
                failed[0] = true;
                warnings.add("sitemap " + map + " could not be read: " + e.getMessage());
            }
        }
        return out;
    }

    private static void pause(Duration d) {
        try {
            Thread.sleep(d);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
    }

    /** A site's robots.txt rules for one agent (RFC 9309). */
    record Robots(List<Rule> rules, List<String> sitemaps, Duration crawlDelay) {
        record Rule(boolean allow, String pattern, int length) {
        }

        /** The group naming the agent, else the {@code *} group; Sitemap lines whatever the group. */
        static Robots parse(String text, String agent) {
            Map<String, List<String[]>> groups = new LinkedHashMap<>();
            List<String> sitemaps = new ArrayList<>();
            List<String> current = new ArrayList<>();
            boolean inRules = false;
            for (String raw : text.split("\r?\n|\r")) {
                String line = raw.replaceFirst("#.*", "").strip();
                int colon = line.indexOf(':');
                if (colon <= 0) {
                    continue;
                }
                String key = line.substring(0, colon).strip().toLowerCase(Locale.ROOT);
                String value = line.substring(colon + 1).strip();
                switch (key) {
                    case "user-agent" -> {
                        if (inRules) {
                            current = new ArrayList<>();
                            inRules = false;
                        }
                        current.add(value.toLowerCase(Locale.ROOT));
                        groups.putIfAbsent(value.toLowerCase(Locale.ROOT), new ArrayList<>());
                    }
                    case "allow", "disallow", "crawl-delay" -> {
                        inRules = true;
                        for (String a : current) {
                            groups.get(a).add(new String[] {key, value});
                        }
                    }
                    case "sitemap" -> sitemaps.add(value);
                    default -> { }
                }
            }
            List<String[]> mine = groups.entrySet().stream().filter(e -> e.getKey().equals(agent.toLowerCase(
                    Locale.ROOT))).map(Map.Entry::getValue).findFirst()
                    .orElse(groups.getOrDefault("*", List.of()));
            List<Rule> rules = new ArrayList<>();
            Duration delay = Duration.ZERO;
            for (String[] r : mine) {
                if (r[0].equals("crawl-delay")) {
                    try {
                        delay = Duration.ofMillis(Math.clamp((long) (Double.parseDouble(r[1]) * 1000), 0, 10_000));
                    } catch (NumberFormatException e) {
                        // ignored, as crawlers do
                    }
                } else if (!r[1].isEmpty()) {
                    rules.add(new Rule(r[0].equals("allow"), r[1], r[1].length()));
                }
            }
            return new Robots(rules, sitemaps, delay);
        }

        /**
         * RFC 9309 matching: {@code *} stands for any characters, a final {@code $} for the end of the path, the rest
         * is literal, and a rule without {@code $} matches a prefix. Greedy, going back only to the last {@code *}:
         * at worst path length times rule length. (It was a regular expression of {@code .*} per star, which a rule
         * of many stars made backtrack for hours on a long path — found by fuzzing: one robots.txt could stall a
         * sync job for good.)
         */
        static boolean matches(String rule, String path) {
            String p = rule.endsWith("$") ? rule.substring(0, rule.length() - 1) : rule + "*";
            int i = 0;
            int j = 0;
            int star = -1;
            int mark = 0;
            while (i < path.length()) {
                if (j < p.length() && p.charAt(j) == '*') {
                    star = j++;
                    mark = i;
                } else if (j < p.length() && p.charAt(j) == path.charAt(i)) {
                    i++;
                    j++;
                } else if (star >= 0) {
                    j = star + 1;
                    i = ++mark;
                } else {
                    return false;
                }
            }
            while (j < p.length() && p.charAt(j) == '*') {
                j++;
            }
            return j == p.length();
        }

        /** Whether the agent may fetch this URL: the longest matching rule decides, an allow wins a tie. */
        boolean allowed(URI u) {
            String path = (u.getRawPath() == null || u.getRawPath().isEmpty() ? "/" : u.getRawPath())
                    + (u.getRawQuery() == null ? "" : "?" + u.getRawQuery());
            Rule best = null;
            for (Rule r : rules) {
                if (matches(r.pattern(), path) && (best == null || r.length() > best.length()
                        || r.length() == best.length() && r.allow())) {
                    best = r;
                }
            }
            return best == null || best.allow();
        }
    }

    /** A sitemap (urlset) or sitemap index, read with a parser that resolves no entity and loads no DTD. */
    record Sitemap(List<String> urls, List<String> sitemaps, boolean broken) {
        /** What parses of it, up to the first error ({@code broken} then). */
        static Sitemap parse(byte[] xml) {
            List<String> urls = new ArrayList<>();
            List<String> maps = new ArrayList<>();
            try {
                javax.xml.stream.XMLInputFactory f = javax.xml.stream.XMLInputFactory.newFactory();
                f.setProperty(javax.xml.stream.XMLInputFactory.SUPPORT_DTD, false);
                f.setProperty(javax.xml.stream.XMLInputFactory.IS_SUPPORTING_EXTERNAL_ENTITIES, false);
                var r = f.createXMLStreamReader(new java.io.ByteArrayInputStream(xml));
                boolean index = false;
                while (r.hasNext() && urls.size() + maps.size() < MAX_SITEMAP_URLS) {
                    if (r.next() == javax.xml.stream.XMLStreamConstants.START_ELEMENT) {
                        String name = r.getLocalName();
                        if (name.equals("sitemapindex")) {
                            index = true;
                        } else if (name.equals("loc")) {
                            (index ? maps : urls).add(r.getElementText().strip());
                        }
                    }
                }
            } catch (javax.xml.stream.XMLStreamException | RuntimeException e) {
                // The JDK's parser also throws unchecked ones on some malformed DTDs (found by fuzzing: a
                // MissingResourceException for "InvalidCharInDTD"); a broken sitemap never fails the crawl.
                return new Sitemap(urls, maps, true);
            }
            return new Sitemap(urls, maps, false);
        }
    }
}
