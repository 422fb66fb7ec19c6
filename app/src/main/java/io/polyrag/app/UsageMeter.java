package io.polyrag.app;

import io.micrometer.core.instrument.Counter;
import io.micrometer.core.instrument.MeterRegistry;
import io.polyrag.core.model.TokenEstimate;
import io.polyrag.core.port.ForwardingLlmClient;
import io.polyrag.core.port.LlmClient;
import io.polyrag.core.port.UsageStore.Count;
import io.polyrag.core.port.UsageStore;
import java.time.Clock;
import java.time.LocalDate;
import java.time.ZoneOffset;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.AbstractExecutorService;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.LongAdder;
import java.util.concurrent.locks.ReentrantLock;
import java.util.function.Consumer;
import java.util.function.Supplier;

/**
 * Counts what each tenant uses (searches, answers, chunks embedded, model tokens) in memory and adds it to the
 * catalog's figures every few seconds and at close, so a search costs no catalog write. A kill -9 loses at most the
 * last {@link #FLUSH_SECONDS} seconds of counts; a flush that fails keeps its counts for the next one.
 */
final class UsageMeter implements AutoCloseable {
    private static final System.Logger LOG = System.getLogger(UsageMeter.class.getName());
    static final int FLUSH_SECONDS = 10;

    /** The metrics counted. */
    static final String SEARCHES = "searches";
    static final String ANSWERS = "answers";
    static final String DOCUMENTS_INDEXED = "documents_indexed";
    static final String CHUNKS_EMBEDDED = "chunks_embedded";
    static final String EXTRACTION_TOKENS = "extraction_tokens";
    /** Model tokens (in and out) contextual retrieval spent writing chunk contexts. */
    static final String CONTEXT_TOKENS = "context_tokens";
    static final String LLM_TOKENS_IN = "llm_tokens_in";
    static final String LLM_TOKENS_OUT = "llm_tokens_out";

    private record Key(String tenant, LocalDate day, String metric, String model) {
    }

    /** The tenant (its id) a language model's tokens are counted for, on the thread that calls the model. */
    static final ThreadLocal<String> TENANT = new ThreadLocal<>();

    /** Runs {@code body} with its model tokens counted for {@code tenantId}, restoring what was set before. */
    static <T> T countedFor(String tenantId, Supplier<T> body) {
        String before = TENANT.get();
        TENANT.set(tenantId);
        try {
            return body.get();
        } finally {
            TENANT.set(before);
        }
    }

    /**
     * The search legs' executor, carrying the submitting thread's tenant into each leg: a leg that calls a model
     * (text-to-Cypher) runs on its own thread, where the tenant was not set and the tokens were counted to nobody.
     */
    static ExecutorService carrying(ExecutorService legs) {
        return new AbstractExecutorService() {
            @Override
            public void execute(Runnable task) {
                String tenant = TENANT.get();
                legs.execute(tenant == null ? task : () -> countedFor(tenant, () -> {
                    task.run();
                    return null;
                }));
            }

            @Override
            public void shutdown() {
                legs.shutdown();
            }

            @Override
            public List<Runnable> shutdownNow() {
                return legs.shutdownNow();
            }

            @Override
            public boolean isShutdown() {
                return legs.isShutdown();
            }

            @Override
            public boolean isTerminated() {
                return legs.isTerminated();
            }

            @Override
            public boolean awaitTermination(long timeout, TimeUnit unit) throws InterruptedException {
                return legs.awaitTermination(timeout, unit);
            }

            @Override
            public void close() {
                legs.close();
            }
        };
    }

    private final UsageStore store;
    private final Clock clock;
    private final Map<Key, LongAdder> pending = new ConcurrentHashMap<>();
    private final ScheduledExecutorService timer;
    private final MeterRegistry perTenant;

    /**
     * @param perTenant where to count each tenant's usage as Prometheus counters with a tenant label (the operator's
     *     choice: one series per tenant); null for none
     */
    UsageMeter(UsageStore store, Clock clock, MeterRegistry perTenant) {
        this.store = store;
        this.clock = clock;
        this.perTenant = perTenant;
        this.timer = Executors.newSingleThreadScheduledExecutor(r -> {
            Thread t = new Thread(r, "polyrag-usage");
            t.setDaemon(true);
            return t;
        });
        timer.scheduleWithFixedDelay(this::flushQuietly, FLUSH_SECONDS, FLUSH_SECONDS, TimeUnit.SECONDS);
    }

    /** Counts {@code amount} of {@code metric} (on {@code model}, or "") for the tenant {@code tenant} (its id). */
    void add(String tenant, String metric, String model, long amount) {
        if (amount <= 0) {
            return;
        }
        String t = tenant == null ? "" : tenant;
        String m = model == null ? "" : model;
        pending.computeIfAbsent(new Key(t, LocalDate.now(clock.withZone(ZoneOffset.UTC)), metric, m),
                k -> new LongAdder()).add(amount);
        if (perTenant != null) {
            Counter.builder("polyrag_tenant_usage_total")
                    .description("what each tenant used, by metric (POLYRAG_METRICS_TENANT_LABEL)")
                    // Local mode's data (and a tenant's that adopted it) as "-", which no tenant id can be: "local"
                    // is one, and its counts were summed with local mode's in one series.
                    .tag("tenant", t.isEmpty() ? "-" : t).tag("metric", metric).register(perTenant)
                    .increment(amount);
        }
    }

    /** A language model whose tokens are counted for the tenant of the calling thread ({@link #TENANT}). */
    LlmClient metered(LlmClient llm) {
        if (llm == null) {
            return null;
        }
        return new ForwardingLlmClient(llm) {
            @Override
            public Response complete(Request request) {
                return counted(request, delegate.complete(request));
            }

            /**
             * A stream that broke after its first token (the client hung up, the provider's stream failed) was billed
             * by the provider, prompt and all, but counted nothing: estimated at four characters a token, as the
             * answer's context budget is.
             */
            @Override
            public Response stream(Request request, Consumer<String> onToken) {
                StringBuilder streamed = new StringBuilder();
                try {
                    return counted(request, delegate.stream(request, t -> {
                        streamed.append(t);
                        onToken.accept(t);
                    }));
                } catch (RuntimeException e) {
                    String tenant = TENANT.get();
                    if (tenant != null && !streamed.isEmpty()) {
                        estimated(tenant, llm.id(), request, streamed);
                    }
                    throw e;
                }
            }

            /**
             * A reply's tokens as the provider reports them; estimated when it reports none (a server that refuses
             * or ignores stream_options, a local one that never counts): every streamed answer counted nothing.
             */
            private Response counted(Request request, Response r) {
                String tenant = TENANT.get();
                if (tenant != null && r != null) {
                    String model = r.model() == null ? llm.id() : r.model();
                    if (r.inputTokens() <= 0 && r.outputTokens() <= 0 && r.text() != null && !r.text().isEmpty()) {
                        estimated(tenant, model, request, r.text());
                    } else {
                        add(tenant, LLM_TOKENS_IN, model, r.inputTokens());
                        add(tenant, LLM_TOKENS_OUT, model, r.outputTokens());
                    }
                }
                return r;
            }

            /** As the answer's context budget counts them: four characters a token, a Chinese character one. */
            private void estimated(String tenant, String model, Request request, CharSequence reply) {
                long prompt = TokenEstimate.proseChars(request.system());
                for (Message m : request.messages()) {
                    prompt += TokenEstimate.proseChars(m.content());
                }
                add(tenant, LLM_TOKENS_IN, model, (prompt + 3) / 4);
                add(tenant, LLM_TOKENS_OUT, model, TokenEstimate.tokens(reply));
            }
        };
    }

    private void flushQuietly() {
        try {
            flush();
        } catch (RuntimeException e) {
            LOG.log(System.Logger.Level.WARNING, "usage counts could not be written (kept for the next try): "
                    + e.getMessage());
        }
    }

    /** Held while a flush writes: a lock, not a monitor, so a virtual thread waiting on it leaves its carrier. */
    private final ReentrantLock flushing = new ReentrantLock();

    /** Adds what was counted since the last flush to the catalog. */
    void flush() {
        flushing.lock();
        try {
            flushNow();
        } finally {
            flushing.unlock();
        }
    }

    private void flushNow() {
        Map<Key, Long> taken = new HashMap<>();
        pending.forEach((k, adder) -> {
            long n = adder.sumThenReset();
            if (n > 0) {
                taken.put(k, n);
            }
        });
        // Counters of days no add can reach any more (two days back: an add reads the day when it runs) go, their
        // counts taken above: one was kept per tenant, day, metric and model for the life of the process.
        LocalDate before = LocalDate.now(clock.withZone(ZoneOffset.UTC)).minusDays(1);
        pending.keySet().removeIf(k -> k.day().isBefore(before));
        if (taken.isEmpty()) {
            return;
        }
        Map<String, Map<LocalDate, List<Count>>> byTenantDay = new HashMap<>();
        taken.forEach((k, n) -> byTenantDay.computeIfAbsent(k.tenant(), t -> new HashMap<>())
                .computeIfAbsent(k.day(), d -> new ArrayList<>()).add(new Count(k.metric(), k.model(), n)));
        try {
            // One write for every tenant and day (it was a transaction each, and a scan of all counts after each).
            store.addUsage(byTenantDay);
        } catch (RuntimeException e) {
            // Nothing was written: it all goes back, to be added by the next flush.
            taken.forEach((k, n) -> pending.computeIfAbsent(k, x -> new LongAdder()).add(n));
            throw e;
        }
    }

    @Override
    public void close() {
        timer.shutdown();
        try {
            timer.awaitTermination(5, TimeUnit.SECONDS);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
        flushQuietly();
    }
}
