package io.polyrag.app;

import io.polyrag.core.model.Modality;
import io.polyrag.core.model.SearchRequest;
import io.polyrag.core.model.SearchResponse;
import io.polyrag.retrieval.HybridSearcher;
import java.time.Instant;
import java.util.Arrays;
import java.util.List;
import java.util.Locale;
import java.util.stream.Collectors;

/**
 * What happens after every search: one warning for a slow one ({@code POLYRAG_SLOW_SEARCH_MS}) saying where its time
 * went, and, with traces on, the search's phases after its legs (fusion, the catalog join and dedup, reranking) as
 * spans under it.
 */
final class SearchLog implements HybridSearcher.Observer {
    private static final System.Logger LOG = System.getLogger("io.polyrag.search.slow");
    /** The most of a query a log line quotes. */
    private static final int QUOTED = 200;
    private final long slowMs;
    private final Tracing tracing;

    SearchLog(long slowMs, Tracing tracing) {
        this.slowMs = slowMs;
        this.tracing = tracing;
    }

    @Override
    public void searched(SearchRequest request, SearchResponse response, Instant startedAt,
            List<HybridSearcher.Phase> phases) {
        tracing.phases(startedAt, phases.stream().filter(p -> !isLeg(p)).toList());
        if (slowMs > 0 && response.tookMs() >= slowMs) {
            LOG.log(System.Logger.Level.WARNING, () -> line(request, response, phases));
        }
    }

    private static boolean isLeg(HybridSearcher.Phase p) {
        return Arrays.stream(Modality.values()).anyMatch(m -> m.wireName().equals(
                p.name()));
    }

    static String line(SearchRequest request, SearchResponse response, List<HybridSearcher.Phase> phases) {
        String parts = phases.stream().map(p -> String.format(Locale.ROOT, "%s %.1f ms", p.name(), p.nanos() / 1e6))
                .collect(Collectors.joining(", "));
        String degraded = response.degraded().isEmpty() ? "" : "; degraded: " + response.degraded().stream()
                .map(d -> d.modality().wireName() + " (" + d.reason() + ")").collect(Collectors.joining(", "));
        String query = request.query().length() > QUOTED ? request.query().substring(0, QUOTED) + "…"
                : request.query();
        return String.format(Locale.ROOT, "slow search: %,d ms (%s%s), top_k %d, %d hits, knowledge bases %s, query "
                + "\"%s\"", response.tookMs(), parts, degraded, request.topK(), response.hits().size(),
                request.knowledgeBases().isEmpty() ? "all" : String.join(",", request.knowledgeBases()),
                query.replace('\n', ' ').replace('\r', ' '));
    }
}
