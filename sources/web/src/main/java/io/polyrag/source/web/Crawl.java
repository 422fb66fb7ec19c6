package io.polyrag.source.web;

import io.polyrag.core.config.Settings;
import io.polyrag.core.http.Outbound;
import io.polyrag.core.http.OutboundException;
import io.polyrag.core.http.PublicOnlyResolver;
import io.polyrag.core.model.Ids;
import io.polyrag.core.model.ItemError;
import io.polyrag.core.model.SyncItem;
import io.polyrag.core.port.SourceConnector.Content;
import io.polyrag.core.port.SourceConnector.Failed;
import io.polyrag.core.port.SourceConnector.Found;
import io.polyrag.core.port.SourceConnector.Gone;
import io.polyrag.core.port.SourceConnector.Host;
import io.polyrag.core.port.SourceConnector.Listed;
import io.polyrag.core.port.SourceConnector.Listing;
import io.polyrag.core.port.SourceConnector.Original;
import io.polyrag.core.port.SourceConnector.Unavailable;
import io.polyrag.core.port.SourceConnector.Unchanged;
import java.net.URI;
import java.time.Duration;
import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.HashSet;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.NoSuchElementException;
import java.util.Objects;
import java.util.Set;

/**
 * One crawl of a web source, as a listing: each step fetches the next page of the frontier (breadth first), follows
 * its links, and hands the engine what it found — a page with its bytes, a 304, a 404, a failure. robots.txt
 * (RFC 9309, for the agent {@code polyrag}: the longest matching rule wins, an allow wins a tie; a crawl delay up to
 * 10 s) is read first; a 304's links come from the page's kept original.
 */
final class Crawl implements Listing {
    private static final int MAX_REDIRECTS = 5;
    /**
     * Page requests in a row that may fail before the crawl stops: a site whose server is down behind a CDN that still
     * answers robots.txt and the sitemap took each page's retries, about a minute each, through its whole frontier.
     */
    private static final int MAX_FAILING = 20;
    private static final int MAX_WARNINGS = 20;
    /** Sitemaps a crawl reads, children of an index it takes (WordPress lists a dozen; ten left crawls incomplete). */
    static final int MAX_SITEMAPS = 50;
    private static final Set<Integer> REDIRECTS = Set.of(301, 302, 303, 307, 308);
    private static final Set<String> READABLE = Set.of("text/html", "application/xhtml+xml", "text/plain",
            "text/markdown", "application/pdf", "text/csv");

    /**
     * A URL to fetch, its link depth, how many redirects led to it, and whether it is a start URL (or a redirect's
     * target from one): a start page not reached leaves the crawl incomplete, whatever the reason, since nothing
     * below it was found.
     */
    private record Page(URI uri, int depth, int hops, boolean start) {
    }

    private final Host host;
    private final Outbound http;
    private final boolean allowPrivate;
    private final long maxBytes;
    private final URI first;
    private final List<String> starts;
    private final String prefix;
    private final int maxPages;
    private final int maxDepth;
    private final Robots robots;
    private final ArrayDeque<Page> frontier = new ArrayDeque<>();
    private final Set<String> queued = new HashSet<>();
    private final Set<String> reached = new HashSet<>(); // pages that answered 2xx or 304
    private final Map<String, String> redirectsTo = new HashMap<>(); // each redirect on the site, to its target
    /** At most ten URLs queued per page allowed (and 100,000): a site of endless links cannot fill the heap. */
    private final int maxQueued;
    private final Map<String, String> refusedHosts = new HashMap<>();
    private final List<String> warnings = new ArrayList<>();
    /** Characters of the URLs queued so far, at most {@link #MAX_QUEUED_CHARS}. */
    private long queuedChars;
    private static final long MAX_QUEUED_CHARS = 16L * 1024 * 1024;
    private final ArrayDeque<Found> ready = new ArrayDeque<>();
    private boolean capped;
    private boolean incomplete;
    /** Requests made for pages, a failed one included (each cost the site and the crawl as much); not redirects. */
    private int fetched;
    /** Page requests in a row that failed (a timeout, a 5xx after the client's retries, a refused connection). */
    private int failing;
    /** Warnings beyond {@link #MAX_WARNINGS}, counted, not kept (a site whose every link redirects off it). */
    private int unwarned;
    /** Pages of a type not indexed (a zip, a video): the first is named in a warning. */
    private int unreadable;

    private Crawl(Map<String, Object> config, Host host, Outbound http, boolean allowPrivate, long maxBytes,
            Robots robots) {
        this.host = host;
        this.http = http;
        this.allowPrivate = allowPrivate;
        this.maxBytes = maxBytes;
        @SuppressWarnings("unchecked")
        List<String> urls = (List<String>) config.get("start_urls");
        this.starts = urls;
        this.first = URI.create(urls.getFirst());
        this.prefix = (String) config.get("path_prefix");
        this.maxPages = (Integer) config.get("max_pages");
        this.maxDepth = (Integer) config.get("max_depth");
        this.robots = robots;
        this.maxQueued = (int) Math.min(100_000L, 10L * maxPages + urls.size());
    }

    /** Checks the site's address, reads its robots.txt and sitemaps, and queues the start URLs. */
    static Crawl start(Map<String, Object> config, Host host, Outbound http, boolean allowPrivate, long maxBytes)
            throws Unavailable {
        @SuppressWarnings("unchecked")
        URI first = URI.create(((List<String>) config.get("start_urls")).getFirst());
        String refusedSite = Fetch.refusal(first.getHost(), allowPrivate);
        if (refusedSite != null) {
            throw new Unavailable(refusedSite + ": nothing was crawled or changed");
        }
        Robots robots;
        try {
            robots = Fetch.robots(http, first, allowPrivate, MAX_REDIRECTS, REDIRECTS);
        } catch (OutboundException e) {
            throw new Unavailable("robots.txt of " + Fetch.origin(first) + " could not be read (" + e.getMessage()
                    + "): nothing was crawled or changed");
        }
        Crawl crawl = new Crawl(config, host, http, allowPrivate, maxBytes, robots);
        crawl.starts.forEach(s -> crawl.enqueue(URI.create(s), 0, true));
        for (URI u : crawl.sitemapUrls()) {
            crawl.enqueue(u, 0, false);
        }
        return crawl;
    }

    private void enqueue(URI u, int depth) {
        enqueue(u, depth, false);
    }

    private void enqueue(URI u, int depth, boolean start) {
        if (u != null && Fetch.sameSite(u, first) && Fetch.under(u.getRawPath(), prefix) && !queued.contains(
                u.toString())) {
            // By characters too: 100,000 links of 2 KB each (a site listing thousands of long unique links a page)
            // held hundreds of megabytes for the crawl's length.
            if (queued.size() >= maxQueued || queuedChars + u.toString().length() > MAX_QUEUED_CHARS) {
                capped = true;
                return;
            }
            queuedChars += u.toString().length();
            queued.add(u.toString());
            frontier.add(new Page(u, depth, 0, start));
        }
    }

    @Override
    public boolean hasNext() {
        while (ready.isEmpty() && !frontier.isEmpty() && fetched < maxPages && failing < MAX_FAILING
                && !host.stopped()) {
            step(frontier.poll());
        }
        return !ready.isEmpty();
    }

    @Override
    public Found next() {
        if (!hasNext()) {
            throw new NoSuchElementException();
        }
        return ready.poll();
    }

    @Override
    public boolean complete() {
        return frontier.isEmpty() && !incomplete && !capped && !host.stopped();
    }

    private void warn(String warning) {
        if (warnings.size() < MAX_WARNINGS) {
            warnings.add(warning);
        } else {
            unwarned++;
        }
    }

    @Override
    public List<String> warnings() {
        List<String> out = new ArrayList<>(warnings);
        if (unwarned > 0) {
            out.add("and " + unwarned + " more warnings like these");
        }
        if (failing >= MAX_FAILING) {
            out.add(MAX_FAILING + " page requests in a row failed: the crawl stopped with " + frontier.size()
                    + " pages left, and no page was taken as deleted");
        } else if (!frontier.isEmpty()) {
            out.add("the page limit (" + maxPages + ") was reached with " + frontier.size() + " pages left: pages not "
                    + "reached were kept");
        }
        if (capped) {
            out.add("more links than " + maxQueued + " were found: the rest were not followed, and no page was taken "
                    + "as deleted");
        }
        return out;
    }

    /** Fetches one page of the frontier; what it found goes to {@link #ready}, its links to the frontier. */
    private void step(Page page) {
        String url = page.uri().toString();
        if (!robots.allowed(page.uri())) {
            if (page.start()) {
                unreached(page, "robots.txt disallows it for the agent " + Fetch.AGENT);
            }
            return;
        }
        String refused = refusedHosts.computeIfAbsent(page.uri().getHost(), h -> Objects.requireNonNullElse(
                Fetch.refusal(h, allowPrivate), ""));
        if (!refused.isEmpty()) {
            ready.add(new Failed(url, new ItemError(url, refused)));
            incomplete = true;
            return;
        }
        Duration delay = robots.crawlDelay();
        if (fetched > 0 && !delay.isZero()) {
            pause(delay);
        }
        SyncItem before = host.recorded(url).orElse(null);
        Outbound.Response r;
        try {
            r = http.get(page.uri(), Fetch.conditional(before), maxBytes);
        } catch (OutboundException e) {
            String why = PublicOnlyResolver.refused(page.uri().getHost());
            ready.add(new Failed(url, new ItemError(url, why != null ? url + ": " + why + " (refused when connecting)"
                    : e.getMessage())));
            incomplete = true;
            fetched++;
            failing++;
            return;
        }
        int status = r.status();
        if (REDIRECTS.contains(status)) {
            // Not a page: the page it leads to is counted when fetched (a site whose links all gain a trailing
            // slash by a redirect filled the page limit with half as many pages).
            redirect(page, r);
            return;
        }
        fetched++;
        failing = status / 100 == 5 ? failing + 1 : 0;
        if (status == 304 || status / 100 == 2) {
            reached.add(url);
        }
        if (status == 304 && before != null) {
            notModified(page, before);
        } else if (status == 404 || status == 410) {
            if (before != null) {
                ready.add(new Gone(url));
            }
            if (page.start()) {
                unreached(page, "it answered HTTP " + status);
            }
        } else if (status / 100 != 2) {
            ready.add(new Failed(url, new ItemError(url, url + " answered HTTP " + status)));
            incomplete = true;
        } else {
            fetched(page, r);
        }
    }

    /** A 304: the page is as recorded; its links come from the original kept when it was last fetched. */
    private void notModified(Page page, SyncItem before) {
        ready.add(new Unchanged(page.uri().toString()));
        if (page.depth() < maxDepth) {
            List<String> stored = storedLinks(before);
            if (stored == null) {
                // Its original is gone (its document deleted, or its delete raced the sync): the page is read again,
                // whole, for its links. Left unread, every later crawl was incomplete, and nothing was ever deleted.
                stored = linksReadAgain(page);
            }
            if (stored == null) {
                // Its links are unknown: what lies below it cannot be judged deleted this time.
                incomplete = true;
            } else {
                stored.forEach(l -> enqueue(Fetch.resolve(page.uri(), l), page.depth() + 1));
            }
        }
    }

    /** The links of a page fetched again without validators; null when that fails. */
    private List<String> linksReadAgain(Page page) {
        try {
            Outbound.Response r = http.get(page.uri(), Fetch.conditional(null), maxBytes);
            if (r.status() / 100 != 2 || r.truncated()) {
                return null;
            }
            String type = Fetch.mediaType(r.header("content-type"));
            byte[] body = decoded(r);
            return body == null ? null : html(type) ? host.links(page.uri().toString(), body) : List.of();
        } catch (OutboundException e) {
            return null;
        }
    }

    /** A 2xx: the page with its bytes (when it is of a type polyrag reads and not cut off), and its links queued. */
    private void fetched(Page page, Outbound.Response r) {
        String url = page.uri().toString();
        // The type first: a large zip linked from the site marked every crawl incomplete ("links unread"): no deletes.
        String type = Fetch.mediaType(r.header("content-type"));
        if (!READABLE.contains(type)) {
            if (unreadable++ == 0) {
                warn(url + " is " + (type.isEmpty() ? "of no declared type" : type) + ", a type a web source does "
                        + "not index (HTML, text, Markdown, PDF, CSV): skipped, as any other such page");
            }
            return;
        }
        if (r.truncated()) {
            ready.add(new Failed(url, new ItemError(url, url + " is larger than " + maxBytes / (1024 * 1024)
                    + " MiB (" + Settings.SYNC_WEB_MAX_PAGE_MB.env() + "): skipped")));
            // Its links were not read: what lies below it cannot be judged deleted this time.
            incomplete |= page.depth() < maxDepth && html(type);
            return;
        }
        byte[] body = decoded(r);
        if (body == null) {
            ready.add(new Failed(url, new ItemError(url, url + " inflates past " + maxBytes / (1024 * 1024) + " MiB ("
                    + Settings.SYNC_WEB_MAX_PAGE_MB.env() + "): skipped")));
            incomplete |= page.depth() < maxDepth && html(type);
            return;
        }
        String etag = r.header("etag");
        ready.add(new Listed(url, Fetch.lastModified(r.header("last-modified")), body.length, etag == null
                || etag.length() > 1000 ? "" : etag, Content.bytes(url, Fetch.name(page.uri(), type), type, body)));
        if (page.depth() < maxDepth && html(type)) {
            host.links(url, body).forEach(l -> enqueue(Fetch.resolve(page.uri(), l), page.depth() + 1));
        }
    }

    private void redirect(Page page, Outbound.Response r) {
        String url = page.uri().toString();
        URI to = Fetch.resolve(page.uri(), r.header("location"));
        if (to != null) {
            redirectsTo.put(url, to.toString());
        }
        if (to != null && !Fetch.sameSite(to, first)) {
            warn(url + " redirects off the site, to " + to + ": not followed");
            if (page.start()) {
                // The site moved (http → https, a new host): nothing it held may be taken as deleted.
                incomplete = true;
                ready.add(new Failed(url, new ItemError(url, "the start URL " + url + " redirects to another site, "
                        + to + ": register that site instead")));
            }
        } else if (page.hops() >= MAX_REDIRECTS) {
            // The page it leads to was not reached: it, and what lies below it, cannot be judged deleted.
            incomplete = true;
            ready.add(new Failed(null, new ItemError(url, url + ": more than " + MAX_REDIRECTS + " redirects in a "
                    + "row")));
        } else if (page.start() && to != null && Fetch.signIn(to)) {
            // A start page that now sends to a sign-in page (/login?next=…, inside the prefix or not): the pages
            // below were not reached, and the login page is not the site (indexed as it, the rest was deleted).
            unreached(page, "it redirects to " + to + ", a sign-in page");
        } else if (to != null && Fetch.under(to.getRawPath(), prefix) && queued.add(to.toString())) {
            // Ahead of the rest: the redirect is this page's answer, at its depth.
            frontier.addFirst(new Page(to, page.depth(), page.hops() + 1, page.start()));
        } else if (page.start() && to != null && Fetch.under(to.getRawPath(), prefix) && !leadsOn(to, page)) {
            // A start URL redirected to one already queued that leads nowhere reached: back to itself (a consent or
            // cookie check answered to a client without cookies), or a loop. Dropped silently, the pages found only
            // through it were taken as deleted.
            unreached(page, "it redirects in a loop, to " + to);
        } else if (page.start() && (to == null || !Fetch.under(to.getRawPath(), prefix))) {
            // A sign-in page (/login?next=…) or a redirect without a Location: the pages below were not reached.
            unreached(page, to == null ? "it redirects without a Location" : "it redirects to " + to + ", outside the "
                    + "path prefix " + prefix);
        }
    }

    /**
     * Whether the queued page at {@code to}, or the one its redirects lead to, answered (2xx, 304) or waits (then made
     * a start page, as {@code from} is): {@code /docs/index.html} → {@code /docs/} → {@code /docs/en/} is no loop.
     */
    private boolean leadsOn(URI to, Page from) {
        Set<String> seen = new HashSet<>();
        for (String at = to.toString(); at != null && seen.add(at); at = redirectsTo.get(at)) {
            if (reached.contains(at) || promoteToStart(URI.create(at), from)) {
                return true;
            }
        }
        return false;
    }

    /** Makes the page at {@code to}, queued and not yet fetched, a start page; false when it is not waiting. */
    private boolean promoteToStart(URI to, Page from) {
        Page p = frontier.stream().filter(x -> x.uri().toString().equals(to.toString())).findFirst().orElse(null);
        if (p != null) {
            frontier.remove(p);
            frontier.addFirst(new Page(to, Math.min(p.depth(), from.depth()), from.hops() + 1, true));
        }
        return p != null;
    }

    /**
     * A start page not reached: nothing below it was found, so nothing the source holds may be taken as deleted (a
     * site briefly broken, or newly behind a sign-in, emptied the knowledge base).
     */
    private void unreached(Page page, String why) {
        String url = page.uri().toString();
        incomplete = true;
        ready.add(new Failed(null, new ItemError(url, "the start URL " + url + " was not reached (" + why + "): "
                + "nothing was taken as deleted; if the site moved, change the source's start URL")));
    }

    private static boolean html(String type) {
        return type.equals("text/html") || type.equals("application/xhtml+xml");
    }

    /** The links of a page that answered 304: from the original kept when it was last fetched; null if it is gone. */
    private List<String> storedLinks(SyncItem before) {
        if (before.documentId().isEmpty()) {
            return null;
        }
        Original original = host.original(before.documentId(), maxBytes).orElse(null);
        if (original == null) {
            return null;
        }
        return html(Fetch.mediaType(original.mediaType())) ? host.links(before.item(), original.bytes()) : List.of();
    }

    /**
     * The in-site URLs the site's sitemaps list (robots.txt's Sitemap lines, else /sitemap.xml), one index level.
     * A sitemap that fails (other than the default one being absent), is cut at 50 MiB or does not parse makes the
     * crawl incomplete: pages it may have listed cannot be judged deleted.
     */
    private List<URI> sitemapUrls() {
        boolean declared = !robots.sitemaps().isEmpty();
        List<String> maps = declared ? robots.sitemaps() : List.of(Fetch.origin(first) + "/sitemap.xml");
        List<URI> out = new ArrayList<>();
        // Every declared one, each once, within the reads' limit (MAX_SITEMAPS): five at most made a site declaring
        // six (news, images, video, blog, docs, products) incomplete at every crawl, so nothing was ever deleted.
        ArrayDeque<String> todo = new ArrayDeque<>(new LinkedHashSet<>(maps));
        int read = 0;
        boolean fallback = !declared;
        while (!todo.isEmpty() && read < MAX_SITEMAPS && out.size() < Sitemap.MAX_URLS && !host.stopped()) {
            String named = todo.poll();
            URI map = Fetch.url(named);
            if (map == null || !Fetch.sameSite(map, first)) {
                fallback = robots.sitemaps().contains(named) ? offSite(named, fallback, todo) : fallback;
                continue;
            }
            read++;
            try {
                Outbound.Response r = http.get(map, Map.of("User-Agent", Fetch.AGENT, "Accept-Encoding", "identity"),
                        50L * 1024 * 1024);
                // The default /sitemap.xml, which robots.txt did not declare: a site without one answers 404 — or
                // 403 (a bucket behind a CDN), 410, a redirect (to an index page, to the home page), or a page of
                // HTML (a catch-all). Each means "no sitemap" here; read as a failure, every crawl was incomplete and
                // nothing removed from the site was ever deleted.
                // The same of the site's own /sitemap.xml read in place of one robots.txt names elsewhere.
                boolean defaultOne = !declared && read == 1 || named.equals(Fetch.origin(first) + "/sitemap.xml")
                        && !robots.sitemaps().contains(named);
                if (defaultOne && (r.status() / 100 == 4 || REDIRECTS.contains(r.status()) || r.status() / 100 == 2
                        && html(Fetch.mediaType(r.header("content-type"))))) {
                    continue;
                }
                if (r.status() / 100 != 2) {
                    incomplete = true;
                    warn("sitemap " + map + " answered HTTP " + r.status());
                    continue;
                }
                Sitemap s = Sitemap.parse(Fetch.gunzipped(r.body()));
                if (r.truncated() || s.broken() || s.cut()) { // past where it was cut, its pages are not judged: kept
                    incomplete = true;
                    warn("sitemap " + map + (r.truncated() ? " is larger than 50 MiB: read in part" : s.broken()
                            ? " is not well-formed XML: read up to the error" : " lists more than " + Sitemap.MAX_URLS
                            + " entries: read in part"));
                }
                // Only the pages this source crawls count toward the URL limit (a site's elsewhere filled it).
                s.sitemaps().stream().limit(MAX_SITEMAPS).forEach(todo::add);
                if (s.sitemaps().size() > MAX_SITEMAPS) {
                    sitemapsLeft(s.sitemaps().size() - MAX_SITEMAPS);
                }
                s.urls().stream().map(Fetch::url).filter(u -> u != null && Fetch.sameSite(u, first)
                        && Fetch.under(u.getRawPath(), prefix)).forEach(out::add);
            } catch (OutboundException e) {
                incomplete = true;
                warn("sitemap " + map + " could not be read: " + e.getMessage());
            }
        }
        // Sitemaps or URLs left unread by these limits may list pages no link reaches: none of those is deleted.
        if (!todo.isEmpty()) {
            sitemapsLeft(todo.size());
        } else if (out.size() >= Sitemap.MAX_URLS) {
            incomplete = true;
            warnings.add("the sitemaps list more than " + Sitemap.MAX_URLS + " URLs: read in part");
        }
        return out;
    }

    /**
     * A sitemap robots.txt names on another origin (www. against the apex, http against https): not read, and said;
     * the site's own /sitemap.xml is tried instead (its pages were silently never indexed). Returns whether it was.
     */
    private boolean offSite(String named, boolean fallback, ArrayDeque<String> todo) {
        warnings.add("the sitemap " + Ids.abbreviate(named, 200) + " that robots.txt names is not on "
                + Fetch.origin(first) + ": not read" + (fallback ? "" : "; " + Fetch.origin(first) + "/sitemap.xml is "
                + "read instead"));
        if (!fallback) {
            todo.add(Fetch.origin(first) + "/sitemap.xml");
        }
        return true;
    }

    private void sitemapsLeft(int n) {
        incomplete = true;
        warnings.add(n + (n == 1 ? " sitemap was" : " sitemaps were") + " not read (at most " + MAX_SITEMAPS + " a "
                + "crawl, or the sync was stopped): the pages only they list are not judged deleted");
    }

    private static void pause(Duration d) {
        try {
            Thread.sleep(d);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
    }

    /**
     * A page's bytes, inflated when it came gzipped though no coding was asked for (S3 and CDNs serve pre-compressed
     * objects so): read as they came, such a page was refused as an archive and its links lost. Null when it
     * inflates past the page size limit. Text in the charset its Content-Type names is made UTF-8 with a mark.
     */
    private byte[] decoded(Outbound.Response r) {
        String coding = r.header("content-encoding");
        if (coding == null || !coding.strip().toLowerCase(Locale.ROOT).matches("x-gzip|gzip")) {
            return Fetch.inDeclaredCharset(r.body(), r.header("content-type"));
        }
        byte[] out = Fetch.gunzipped(r.body(), maxBytes + 1L);
        return out.length > maxBytes ? null : Fetch.inDeclaredCharset(out, r.header("content-type"));
    }
}
