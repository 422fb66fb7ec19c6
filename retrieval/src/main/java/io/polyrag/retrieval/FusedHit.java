package io.polyrag.retrieval;

import io.polyrag.core.model.SourceScore;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * A chunk after fusion: its fused score and where each retriever ranked it.
 *
 * @param chunkId the chunk
 * @param score the fused score: the sum of {@code contributions} when there are any
 * @param sources rank and score per modality wire name
 * @param contributions what each modality added to the fused score, by wire name; empty when not attributed
 * @param merged ids of the near-duplicate chunks dedup merged into this one, in the order they were met
 */
public record FusedHit(String chunkId, double score, Map<String, SourceScore> sources,
        Map<String, Double> contributions, List<String> merged) {
    /** Fused score, then best rank in any source, then chunk id: a total, deterministic order. */
    public static final Comparator<FusedHit> ORDER = Comparator.comparingDouble(FusedHit::score).reversed()
            .thenComparingInt(FusedHit::bestRank).thenComparing(FusedHit::chunkId);

    public FusedHit {
        sources = Map.copyOf(sources);
        contributions = Map.copyOf(contributions);
        merged = List.copyOf(merged);
    }

    /** A hit whose score is not attributed to modalities and that merged nothing. */
    public FusedHit(String chunkId, double score, Map<String, SourceScore> sources) {
        this(chunkId, score, sources, Map.of(), List.of());
    }

    /** The same hit with other sources (e.g. a reranker's position added). */
    public FusedHit withSources(Map<String, SourceScore> newSources) {
        return new FusedHit(chunkId, score, newSources, contributions, merged);
    }

    public int bestRank() {
        return sources.values().stream().mapToInt(SourceScore::rank).min().orElse(Integer.MAX_VALUE);
    }

    /** Fuses the rankings of two query variants: fused scores add up, each source keeps its better rank. */
    static List<FusedHit> combine(List<FusedHit> a, List<FusedHit> b) {
        Map<String, FusedHit> merged = new LinkedHashMap<>();
        for (FusedHit h : a) {
            merged.put(h.chunkId(), h);
        }
        for (FusedHit h : b) {
            merged.merge(h.chunkId(), h, (x, y) -> {
                Map<String, SourceScore> sources = new HashMap<>(x.sources());
                y.sources().forEach((m, sc) -> sources.merge(m, sc, (p, q) -> p.rank() <= q.rank() ? p : q));
                Map<String, Double> contributions = new HashMap<>(x.contributions());
                y.contributions().forEach((m, c) -> contributions.merge(m, c, Double::sum));
                return new FusedHit(x.chunkId(), x.score() + y.score(), sources, contributions, List.of());
            });
        }
        List<FusedHit> out = new ArrayList<>(merged.values());
        out.sort(FusedHit.ORDER);
        return out;
    }
}
