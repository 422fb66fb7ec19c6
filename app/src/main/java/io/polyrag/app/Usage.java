package io.polyrag.app;

import io.polyrag.core.InvalidInputException;
import io.polyrag.core.QuotaExceededException;
import io.polyrag.core.model.IngestReport;
import io.polyrag.core.model.Tenant;
import io.polyrag.core.port.UsageStore.Count;
import io.polyrag.core.port.UsageStore.Quotas;
import io.polyrag.core.port.UsageStore.Stock;
import io.polyrag.core.port.UsageStore;
import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.time.LocalDate;
import java.time.ZoneOffset;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Optional;
import java.util.TreeMap;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.atomic.AtomicLong;
import java.util.concurrent.locks.ReentrantLock;
import java.util.function.LongSupplier;
import java.util.function.Supplier;

/**
 * Each tenant's usage (what it holds, what it did, what it spent on models) and the quotas an operator sets on it,
 * enforced where the work enters: a search or answer past its tenant's searches per minute is refused with 429 until
 * the minute turns; an ingest while the tenant holds its documents or megabytes is refused with 413; extraction
 * spends at most what is left of the day's tokens.
 */
public final class Usage {
    /** One tenant's report. */
    public record Report(String tenant, LocalDate from, LocalDate to, Stock stock, List<Count> counts,
            Quotas quotas) {
    }

    private final UsageStore store;
    private final UsageMeter meter;
    private final Clock clock;
    /** Quotas by tenant id, read again at most every few seconds (an operator's change reaches every replica). */
    private final Map<String, Cached> quotas = new ConcurrentHashMap<>();
    /** Searches this replica answered in the current minute, by tenant id. */
    private final Map<String, Window> searches = new ConcurrentHashMap<>();

    private record Cached(Quotas quotas, long readAt) {
    }

    private static final class Window {
        long minute;
        final AtomicLong count = new AtomicLong();
    }

    private static final long QUOTAS_FRESH_NANOS = Duration.ofSeconds(5).toNanos();

    Usage(UsageStore store, UsageMeter meter, Clock clock) {
        this.store = store;
        this.meter = meter;
        this.clock = clock;
    }

    /** @param meter counts usage in memory; null where nothing is counted (the command line's quota admin) */
    UsageMeter meter() {
        return meter;
    }

    private void flush() {
        if (meter != null) {
            meter.flush();
        }
    }

    /**
     * The stored id of the tenant named {@code name} ({@code ""} for the one that adopted local mode's data, whose
     * rows are the local tenant's).
     */
    public static String idOf(String name, Optional<String> localOwner) {
        String id = Tenant.of(name).id();
        return localOwner.isPresent() && localOwner.get().equals(id) ? "" : id;
    }

    /** The tenant's report over the days {@code from} to {@code to} (UTC, both included). */
    public Report report(Tenant tenant, LocalDate from, LocalDate to) {
        check(from, to);
        flush();
        return new Report(tenant.name(), from, to, store.stock(tenant.id()), store.usage(tenant.id(), from, to),
                store.quotas(tenant.id()));
    }

    /**
     * Every tenant's report (the operator's view): each tenant that holds, used or has quotas, by name ({@code ""}:
     * the local tenant, or the name of the tenant that adopted its data).
     */
    public List<Report> reports(LocalDate from, LocalDate to, Optional<String> localOwner) {
        check(from, to);
        flush();
        Map<String, Stock> stock = store.stockOfAll();
        Map<String, List<Count>> used = store.usageOfAll(from, to);
        Map<String, Quotas> limits = store.allQuotas();
        Map<String, Report> out = new TreeMap<>();
        for (var tenants : List.of(stock.keySet(), used.keySet(), limits.keySet())) {
            for (String t : tenants) {
                out.computeIfAbsent(t, k -> new Report(k.isEmpty() ? localOwner.orElse("") : k, from, to, stock.getOrDefault(k, Stock.NONE),
                        used.getOrDefault(k, List.of()), limits.getOrDefault(k, Quotas.NONE)));
            }
        }
        return List.copyOf(out.values());
    }

    private static void check(LocalDate from, LocalDate to) {
        if (from.isAfter(to)) {
            throw new InvalidInputException("'from' (" + from + ") is after 'to' (" + to + "): give from <= to");
        }
        if (Duration.between(from.atStartOfDay(), to.atStartOfDay()).toDays() > 3660) {
            throw new InvalidInputException("the period from " + from + " to " + to + " is longer than ten years: "
                    + "give a shorter one");
        }
    }

    /** The tenant's quotas (id: the tenant's stored id, "" the local tenant). */
    public Quotas quotas(String tenantId) {
        return store.quotas(tenantId);
    }

    /** Sets the tenant's quotas; every limit must be positive (null: none). */
    public Quotas setQuotas(String tenantId, Quotas q) {
        positive("documents", q.documents());
        positive("stored_mb", q.storedMb());
        positive("extraction_tokens_per_day", q.extractionTokensPerDay());
        positive("searches_per_minute", q.searchesPerMinute() == null ? null : (long) q.searchesPerMinute());
        store.putQuotas(tenantId, q);
        quotas.remove(tenantId);
        return store.quotas(tenantId);
    }

    private static void positive(String field, Long v) {
        if (v != null && v <= 0) {
            throw new InvalidInputException("field '" + field + "' must be a positive number (or null for no limit), "
                    + "not " + v);
        }
    }

    private Quotas current(String tenantId) {
        long now = System.nanoTime();
        Cached c = quotas.get(tenantId);
        if (c == null || now - c.readAt() > QUOTAS_FRESH_NANOS) {
            c = new Cached(store.quotas(tenantId), now);
            quotas.put(tenantId, c);
        }
        return c.quotas();
    }

    /**
     * Counts {@code n} searches at once (an evaluation's or a tuning's of {@code n} judged queries), at most the
     * tenant's whole minute, refused whole, counting none, when they do not fit in what is left of it: an evaluation
     * made thousands of searches in seconds past a quota of 60 a minute. More than a minute's worth takes a whole
     * fresh minute (refused for good, a tenant with fewer searches a minute than judged queries could never tune).
     *
     * @param what what makes them, to say in the refusal ("an evaluation")
     */
    void searchedAtOnce(String tenant, int n, String what) {
        Integer limit = current(tenant).searchesPerMinute();
        if (limit != null) {
            Instant now = clock.instant();
            long minute = now.getEpochSecond() / 60;
            Window w = searches.computeIfAbsent(tenant, t -> new Window());
            long charge = Math.min(n, limit);
            long left;
            synchronized (w) {
                if (w.minute != minute) {
                    w.minute = minute;
                    w.count.set(0);
                }
                left = Math.max(0, limit - w.count.get());
                if (charge <= left) {
                    w.count.addAndGet(charge);
                }
            }
            if (charge > left) {
                long reset = 60 - now.getEpochSecond() % 60;
                throw new QuotaExceededException("searches_per_minute", reset, String.format(Locale.ROOT, "quota "
                        + "searches_per_minute: %s searches once for each of its %,d judged queries (counted as at "
                        + "most the minute's %,d), and this tenant has %,d left this minute: retry in %d s (it resets "
                        + "each minute), or ask the operator to raise it", what, n, limit, left, reset));
            }
        }
        if (meter != null) {
            meter.add(tenant, UsageMeter.SEARCHES, "", n);
        }
    }

    /** Counts a search (or an answer's) of the tenant, refused past its searches per minute. */
    void searched(String tenant, String metric) {
        Integer limit = current(tenant).searchesPerMinute();
        if (limit != null) {
            Instant now = clock.instant();
            long minute = now.getEpochSecond() / 60;
            Window w = searches.computeIfAbsent(tenant, t -> new Window());
            long n;
            synchronized (w) {
                if (w.minute != minute) {
                    w.minute = minute;
                    w.count.set(0);
                }
                n = w.count.incrementAndGet();
            }
            if (n > limit) {
                long reset = 60 - now.getEpochSecond() % 60;
                throw new QuotaExceededException("searches_per_minute", reset, String.format(Locale.ROOT,
                        "quota searches_per_minute: this tenant's %,d searches a minute are used up: retry in %d s (it resets each "
                                + "minute), or ask the operator to raise it", limit, reset));
            }
        }
        if (meter != null) {
            meter.add(tenant, metric, "", 1);
        }
    }

    /** Refuses an ingest while the tenant holds its quota of documents or stored megabytes. */
    void mayIngest(String tenant) {
        mayIngest(tenant, () -> 0, 0);
    }

    /**
     * Refuses an ingest while the tenant holds its quota of documents, or when its originals, its uploads waiting to
     * be ingested and the {@code incoming} bytes of this request would pass its stored megabytes.
     *
     * @param waiting the bytes of the tenant's uploads not ingested yet (asked only when it has a storage quota)
     */
    void mayIngest(String tenant, LongSupplier waiting, long incoming) {
        Quotas q = current(tenant);
        if (q.documents() == null && q.storedMb() == null) {
            return;
        }
        Stock s = store.stock(tenant);
        if (q.documents() != null && s.documents() >= q.documents()) {
            throw new QuotaExceededException("documents", 0, String.format(Locale.ROOT, "quota documents: this "
                    + "tenant holds %,d documents, its limit: delete some, or ask the operator to raise it", s.documents()));
        }
        if (q.storedMb() == null) {
            return;
        }
        long pending = waiting.getAsLong();
        // In whole MiB: the quota times 2^20 overflowed for quotas above 8.8 million TiB, refusing every ingest.
        long held = s.storedBytes() + pending;
        if (held >> 20 >= q.storedMb() || incoming > 0 && (held + incoming - 1 >> 20) >= q.storedMb()) {
            throw new QuotaExceededException("stored_mb", 0, String.format(Locale.ROOT, "quota stored_mb: this tenant "
                    + "stores %s of originals%s%s, its limit is %,d MB: delete some, or ask the operator to raise it",
                    mb(s.storedBytes()), pending > 0 ? " and " + mb(pending) + " of uploads waiting to be ingested"
                    : "", incoming > 0 ? "; this request's " + mb(incoming) + " would pass it" : "", q.storedMb()));
        }
    }

    /** Bytes each tenant's requests were let in with and have not yet stored or queued (see {@link #reserve}). */
    private final Map<String, InFlight> inFlightBytes = new ConcurrentHashMap<>();

    /** Bytes let in against the storage quota, held until the request has stored or queued them. */
    interface Reservation extends AutoCloseable {
        @Override
        void close();
    }

    /**
     * As {@link #mayIngest(String, LongSupplier, long)}, counting the bytes the tenant's other requests were let in
     * with and have not stored or queued yet, and holding this one's until the reservation is closed: twenty uploads
     * at once each saw nothing waiting, and all passed (within this process; replicas each hold their own).
     */
    Reservation reserve(String tenant, LongSupplier waiting, long incoming) {
        InFlight inFlight = inFlightBytes.computeIfAbsent(tenant, t -> new InFlight());
        // A lock, not a monitor: the check reads the catalog, and a virtual thread blocked in a monitor pins its
        // carrier on JDK 21.
        inFlight.lock.lock();
        try {
            long others = inFlight.bytes.get();
            mayIngest(tenant, () -> waiting.getAsLong() + others, incoming);
            inFlight.bytes.addAndGet(incoming);
        } finally {
            inFlight.lock.unlock();
        }
        return () -> inFlight.bytes.addAndGet(-incoming);
    }

    /** A tenant's bytes in flight, and the lock its checks take in turn. */
    private static final class InFlight {
        final ReentrantLock lock = new ReentrantLock();
        final AtomicLong bytes = new AtomicLong();
    }

    /** Bytes in megabytes to a tenth (whole megabytes said "0 MB waiting" of 900 KB). */
    private static String mb(long bytes) {
        return String.format(Locale.ROOT, "%,.1f MB", bytes / 1048576.0);
    }

    /**
     * What stops an ingest of the tenant before its next input: the reason once it holds its quota of documents or
     * stored megabytes, else null. The catalog is asked before the first input (a queued job may start after its
     * tenant reached the quota) and then at most once a second, so an ingest may pass the limit by what it wrote in
     * that second and by the batches still being written.
     */
    Supplier<String> limit(String tenant) {
        Quotas q = current(tenant);
        if (q.documents() == null && q.storedMb() == null) {
            return () -> null;
        }
        long[] askedAt = {System.nanoTime() - 1_000_000_000L};
        String[] why = {null};
        return () -> {
            long now = System.nanoTime();
            if (why[0] == null && now - askedAt[0] >= 1_000_000_000L) {
                askedAt[0] = now;
                try {
                    mayIngest(tenant);
                } catch (QuotaExceededException e) {
                    why[0] = e.getMessage();
                }
            }
            return why[0];
        };
    }

    /**
     * Extraction tokens granted to one ingest; {@code reserved} of them are held from the tenant's daily quota until
     * {@link #release}d, so ingests running at once share what is left instead of each being granted all of it (ten
     * at once could spend ten times the quota).
     */
    record Grant(String tenant, long tokens, long reserved) {
    }

    /**
     * The extraction tokens the tenant may still spend today, less what ingests running now were granted
     * ({@code configured} when it has no such quota or less is left; 0 in the configuration means no limit), -1
     * when its allowance is spent: the language model is then not called at all (a budget of 1 let every ingest make
     * one more call).
     */
    Grant grantExtraction(String tenant, long configured) {
        Long perDay = current(tenant).extractionTokensPerDay();
        if (perDay == null) {
            return new Grant(tenant, configured, 0);
        }
        AtomicLong held = reservedTokens.computeIfAbsent(tenant, t -> new AtomicLong());
        synchronized (held) {
            flush();
            LocalDate today = LocalDate.now(clock.withZone(ZoneOffset.UTC));
            long spent = store.usage(tenant, today, today).stream()
                    .filter(c -> c.metric().equals(UsageMeter.EXTRACTION_TOKENS)).mapToLong(Count::amount).sum();
            long left = perDay - spent - held.get();
            if (left <= 0) {
                return new Grant(tenant, -1, 0);
            }
            long granted = configured > 0 ? Math.min(configured, left) : left;
            held.addAndGet(granted);
            return new Grant(tenant, granted, granted);
        }
    }

    /** Gives back what a grant held, once its ingest's spending is counted ({@link #ingested}). */
    void release(Grant grant) {
        if (grant.reserved() > 0) {
            reservedTokens.computeIfAbsent(grant.tenant(), t -> new AtomicLong()).addAndGet(-grant.reserved());
        }
    }

    /** Extraction tokens granted to ingests still running, per tenant (this process's). */
    private final Map<String, AtomicLong> reservedTokens = new ConcurrentHashMap<>();

    /** Counts what an ingest of the tenant indexed and spent. */
    void ingested(String tenant, IngestReport r, String embeddingModel, String extractor,
            String contextModel) {
        if (meter == null) {
            return;
        }
        meter.add(tenant, UsageMeter.DOCUMENTS_INDEXED, "", r.added() + r.updated());
        if (embeddingModel != null) {
            meter.add(tenant, UsageMeter.CHUNKS_EMBEDDED, embeddingModel, r.chunks());
        }
        meter.add(tenant, UsageMeter.EXTRACTION_TOKENS, extractor, r.extractionTokens());
        if (r.contextTokens() > 0) {
            meter.add(tenant, UsageMeter.CONTEXT_TOKENS, contextModel, r.contextTokens());
        }
    }
}
