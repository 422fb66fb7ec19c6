package io.polyrag.core.port;

import java.time.LocalDate;
import java.util.List;
import java.util.Map;

/**
 * What each tenant uses, counted in the catalog so that every replica adds to the same figures, and the limits an
 * operator set on it. Tenants are named by their stored id ({@code ""}: the local tenant).
 */
public interface UsageStore {
    /**
     * An amount of one metric on one day.
     *
     * @param metric what was counted ({@code searches}, {@code answers}, {@code chunks_embedded}, …)
     * @param model the model it was spent on, or {@code ""}
     * @param amount how much
     */
    record Count(String metric, String model, long amount) {
    }

    /** What a tenant holds now: visible documents, their chunks, and their originals' bytes. */
    record Stock(long documents, long chunks, long storedBytes) {
        public static final Stock NONE = new Stock(0, 0, 0);
    }

    /**
     * An operator's limits on a tenant; null: no limit.
     *
     * @param documents visible documents
     * @param storedMb the originals' megabytes
     * @param extractionTokensPerDay language-model tokens entity extraction may spend in a day (UTC)
     * @param searchesPerMinute searches and answers in a minute
     */
    record Quotas(Long documents, Long storedMb, Long extractionTokensPerDay, Integer searchesPerMinute) {
        public static final Quotas NONE = new Quotas(null, null, null, null);

        public boolean none() {
            return documents == null && storedMb == null && extractionTokensPerDay == null
                    && searchesPerMinute == null;
        }
    }

    /** Adds {@code counts} to the tenant's figures of {@code day}. */
    void addUsage(String tenant, LocalDate day, List<Count> counts);

    /**
     * {@link #addUsage(String, LocalDate, List)} for every tenant and day of {@code counts}, all or none, in one
     * write where the store can (a flush of ten thousand tenants was ten thousand transactions).
     */
    default void addUsage(Map<String, Map<LocalDate, List<Count>>> counts) {
        counts.forEach((tenant, days) -> days.forEach((day, c) -> addUsage(tenant, day, c)));
    }

    /** The tenant's figures from {@code from} to {@code to} (both included), summed by metric and model. */
    List<Count> usage(String tenant, LocalDate from, LocalDate to);

    /** Every tenant's figures over those days, by tenant. */
    Map<String, List<Count>> usageOfAll(LocalDate from, LocalDate to);

    /** What the tenant holds now. */
    Stock stock(String tenant);

    /** What every tenant holding anything holds, by tenant. */
    Map<String, Stock> stockOfAll();

    /** The tenant's limits ({@link Quotas#NONE} when none were set). */
    Quotas quotas(String tenant);

    /** Every tenant's limits that were set, by tenant. */
    Map<String, Quotas> allQuotas();

    /** Sets the tenant's limits; {@link Quotas#none()} removes them. */
    void putQuotas(String tenant, Quotas quotas);
}
